// The reference regrouping algorithms (seed 002 section V as written) on the
// paper's own examples and on properties every regrouping must have.
#include "BbvTestData.h"
#include "model/BbvClasses.h"
#include "model/ThreadBlockTimes.h"
#include "regroup/GroupGain.h"
#include "regroup/ReferenceRegrouping.h"
#include "regroup/Regrouping.h"

#include <gtest/gtest.h>

#include <set>

namespace divopt {
namespace {
using test::Bbvs;

// Section V-A: {1, 20, 10, 20, 1} sorts before {1, 30, 20, 30, 1}; equal
// BBVs keep thread id order.
TEST(SortingReference, LexicographicOrderStableOnTies) {
  Bbvs B({{1, 30, 20, 30, 1}, {1, 20, 10, 20, 1}, {1, 30, 20, 30, 1}, {1, 20, 10, 20, 1}});
  EXPECT_EQ(sortingReference(B.view()), (std::vector<uint32_t>{1, 3, 0, 2}));
}

// Fig. 3(b): six blocks A-F; block B runs 60, 20 and 6 times in threads 1-3
// (the counts the text gives; the other blocks' counts are ours, following
// the paths the figure describes: A and F once, C and D/E by branch).
Bbvs fig3() {
  return Bbvs({{1, 60, 30, 30, 0, 1}, {1, 20, 10, 0, 10, 1}, {1, 6, 6, 3, 3, 1}});
}

TEST(SortingReference, Fig3ThreadsSortByBlockB) {
  EXPECT_EQ(sortingReference(fig3().view()), (std::vector<uint32_t>{2, 1, 0}));
}

// Eq. (11) with unit latencies: thread 1 (A + 60 B + ...) is the heaviest,
// so Greedy-Max seeds its group with it.
TEST(GreedyMaxReference, Fig3HeaviestThreadFirst) {
  std::vector<uint32_t> D = greedyMaxReference(fig3().view(), std::vector<double>(6, 1), 32);
  EXPECT_EQ(D[0], 0u);
  EXPECT_TRUE(test::isPermutation(D, 3));
}

// Section V-B: one group runs block b once, the other twice; the first
// execution is shared (benefit), the second is one group waiting (cost).
TEST(GroupGain, SectionVBBenefitAndCost) {
  uint32_t Once = 1, Twice = 2;
  double Lat = 7;
  GroupRange A = threadRange(&Once), B = threadRange(&Twice);
  EXPECT_EQ(mergeBenefit(A, B, &Lat, 1), 7 * 1);
  EXPECT_EQ(mergeCost(A, B, &Lat, 1), 7 * (2 - 1));
  EXPECT_EQ(mergeGain(A, B, &Lat, 1), 0);
  // Identical threads: all benefit, no cost.
  EXPECT_EQ(mergeGain(B, B, &Lat, 1), 14);
  EXPECT_EQ(mergeCost(B, B, &Lat, 1), 0);
}

TEST(GroupGain, GroupsMergeThroughTheirRanges) {
  uint32_t MinA[] = {1, 4}, MaxA[] = {3, 4}, MinB[] = {2, 1}, MaxB[] = {2, 9};
  double Lat[] = {10, 1};
  // Union range: block 0 [1, 3], block 1 [1, 9].
  EXPECT_EQ(mergeBenefit({MinA, MaxA}, {MinB, MaxB}, Lat, 2), 10 * 1 + 1 * 1);
  EXPECT_EQ(mergeCost({MinA, MaxA}, {MinB, MaxB}, Lat, 2), 10 * 2 + 1 * 8);
  EXPECT_EQ(mergeGain({MinA, MaxA}, {MinB, MaxB}, Lat, 2), 11 - 28);
}

using Reference = std::vector<uint32_t> (*)(const BbvView &, const std::vector<double> &,
                                            uint32_t);
std::vector<uint32_t> sortingRef(const BbvView &B, const std::vector<double> &, uint32_t) {
  return sortingReference(B);
}
const std::vector<std::pair<const char *, Reference>> References = {
    {"sorting", sortingRef}, {"greedy", greedyReference}, {"greedy-max", greedyMaxReference}};

// Threads of two kinds, interleaved: every algorithm puts each kind in
// groups of its own, so no warp diverges afterwards.
TEST(Regrouping, IdenticalThreadsAreGroupedTogether) {
  Bbvs B(128, 3);
  for (uint32_t T = 0; T < 128; ++T)
    B.setRow(T, T % 2 ? std::vector<uint32_t>{1, 9, 0} : std::vector<uint32_t>{1, 0, 4});
  BbvClasses C = findClasses(B.view(), 1);
  std::vector<double> Lat = {1, 5, 3};
  EXPECT_EQ(threadBlockTimes(C, Lat, nullptr, 64).DivergentWarps, 4u);
  for (auto [Name, Ref] : References) {
    std::vector<uint32_t> D = Ref(B.view(), Lat, 32);
    ASSERT_TRUE(test::isPermutation(D, 128)) << Name;
    EXPECT_EQ(threadBlockTimes(C, Lat, D.data(), 64).DivergentWarps, 0u) << Name;
  }
  for (std::vector<uint32_t> D : {sorting(C, 1), greedy(C, Lat, 32), greedyMax(C, Lat, 32)}) {
    ASSERT_TRUE(test::isPermutation(D, 128));
    EXPECT_EQ(threadBlockTimes(C, Lat, D.data(), 64).DivergentWarps, 0u);
  }
}

// N not a multiple of the group size: D is still a permutation, and the
// short group comes last.
TEST(Regrouping, TailsStayPermutations) {
  for (uint32_t N : {1u, 31u, 33u, 70u, 100u}) {
    Bbvs B = test::randomBbvs(N, 4, 6, 5, N);
    BbvClasses C = findClasses(B.view(), 1);
    std::vector<double> Lat = {1, 2, 3, 4};
    for (auto [Name, Ref] : References)
      EXPECT_TRUE(test::isPermutation(Ref(B.view(), Lat, 32), N)) << Name << " N=" << N;
    EXPECT_TRUE(test::isPermutation(sorting(C, 2), N));
    EXPECT_TRUE(test::isPermutation(greedy(C, Lat, 32), N));
    EXPECT_TRUE(test::isPermutation(greedyMax(C, Lat, 32), N));
    EXPECT_TRUE(test::isPermutation(greedyReference(B.view(), Lat, 64), N));
  }
}

// Four kinds of thread of different latency, shuffled: Greedy-Max forms
// pure groups heaviest first, so thread blocks come out in falling latency.
TEST(GreedyMaxReference, GroupsComeOutHeaviestFirst) {
  std::vector<std::vector<uint32_t>> Kinds = {{1, 2}, {1, 8}, {1, 5}, {1, 11}};
  Bbvs B(128, 2);
  for (uint32_t T = 0; T < 128; ++T)
    B.setRow(T, Kinds[(T * 7) % 4]);
  std::vector<double> Lat = {3, 10};
  BbvClasses C = findClasses(B.view(), 1);
  for (std::vector<uint32_t> D : {greedyMaxReference(B.view(), Lat, 32), greedyMax(C, Lat, 32)}) {
    ThreadBlockTimes T = threadBlockTimes(C, Lat, D.data(), 32);
    EXPECT_EQ(T.Cycles, (std::vector<double>{113, 83, 53, 23}));
    EXPECT_EQ(T.DivergentWarps, 0u);
  }
}

TEST(GreedyReference, GroupsAreCompletedBeforeTheLeftovers) {
  // 40 identical heavy threads and 24 light distinct ones: the heavy
  // threads complete the first group of 32 among themselves.
  Bbvs B(64, 2);
  for (uint32_t T = 0; T < 64; ++T)
    B.setRow(T, T < 40 ? std::vector<uint32_t>{1, 100} : std::vector<uint32_t>{1, T % 5});
  std::vector<uint32_t> D = greedyReference(B.view(), {1, 1}, 32);
  ASSERT_TRUE(test::isPermutation(D, 64));
  std::set<uint32_t> First(D.begin(), D.begin() + 32);
  EXPECT_LT(*First.rbegin(), 40u);
}

} // namespace
} // namespace divopt
