// The fast regrouping algorithms against the references on random
// instances. Sorting and Greedy-Max are deterministic (ties by thread id) and
// the fast versions return the reference's D. Greedy's fast version follows
// the reference's merges but not its exact tie-breaking or thread order
// within a class: without ties in gain its groups, and so every estimate,
// are the reference's; with ties the estimates stay within one percentage
// point of improvement.
#include "BbvTestData.h"
#include "model/BbvClasses.h"
#include "model/LaunchMetrics.h"
#include "regroup/ChooseRegrouping.h"
#include "regroup/ReferenceRegrouping.h"
#include "regroup/Regrouping.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace divopt {
namespace {
using test::Bbvs;

struct Instance {
  uint32_t Threads, Blocks, Patterns, MaxCount;
};

// Few paths, many paths, every thread distinct; small and large counts.
const Instance Instances[] = {{96, 4, 3, 4}, {200, 6, 12, 20}, {160, 8, 160, 50},
                              {256, 5, 40, 3}, {130, 12, 20, 100}};

// Integer cycles make equal gains common; fractional ones make them rare.
std::vector<double> randomLatencies(uint32_t Blocks, uint32_t Seed, bool Ties) {
  std::mt19937 Rng(Seed);
  std::vector<double> Lat(Blocks);
  for (double &L : Lat)
    L = Ties ? 1 + Rng() % 40 : 1 + (Rng() % 100000) / 2500.0;
  return Lat;
}

struct Trial {
  Bbvs B;
  BbvClasses C;
  std::vector<double> Lat;
  LaunchMetrics Before;

  Trial(const Instance &I, uint32_t Seed, bool Ties = true)
      : B(test::randomBbvs(I.Threads, I.Blocks, I.Patterns, I.MaxCount, Seed)),
        C(findClasses(B.view(), 2)), Lat(randomLatencies(I.Blocks, Seed, Ties)),
        Before(metrics(nullptr)) {}

  LaunchMetrics metrics(const uint32_t *D) const {
    return evaluate(C, Lat, D, 64, {2, 2}, {}, 2).Plain;
  }
  void expectSameEstimates(const std::vector<uint32_t> &Fast,
                           const std::vector<uint32_t> &Ref) const {
    ASSERT_TRUE(test::isPermutation(Fast, B.Threads));
    LaunchMetrics F = metrics(Fast.data()), R = metrics(Ref.data());
    EXPECT_EQ(F.DivergentWarps, R.DivergentWarps);
    EXPECT_DOUBLE_EQ(F.BbvWeighted, R.BbvWeighted);
    EXPECT_DOUBLE_EQ(F.BbvWeightedScheduled, R.BbvWeightedScheduled);
  }
  void expectClose(const std::vector<uint32_t> &Fast, const std::vector<uint32_t> &Ref) const {
    ASSERT_TRUE(test::isPermutation(Fast, B.Threads));
    Improvement F = improvement(Before, metrics(Fast.data()));
    Improvement R = improvement(Before, metrics(Ref.data()));
    EXPECT_NEAR(F.BbvWeighted, R.BbvWeighted, 0.01);
    EXPECT_NEAR(F.BbvWeightedScheduled, R.BbvWeightedScheduled, 0.01);
  }
};

TEST(RegroupFast, SortingIsTheReference) {
  for (uint32_t Seed = 1; Seed <= 3; ++Seed)
    for (const Instance &I : Instances) {
      Trial S(I, Seed);
      EXPECT_EQ(sorting(S.C, 2), sortingReference(S.B.view()));
    }
}

TEST(RegroupFast, GreedyMaxIsTheReference) {
  GreedyOptions Unbounded;
  Unbounded.Window = std::numeric_limits<uint32_t>::max();
  for (uint32_t Seed = 1; Seed <= 2; ++Seed)
    for (const Instance &I : Instances) {
      Trial S(I, Seed);
      for (uint32_t GroupSize : {32u, 64u}) {
        std::vector<uint32_t> Ref = greedyMaxReference(S.B.view(), S.Lat, GroupSize);
        EXPECT_EQ(greedyMax(S.C, S.Lat, GroupSize, Unbounded), Ref)
            << "threads " << I.Threads << " seed " << Seed << " group " << GroupSize;
        // The default window is exhaustive below 512 classes.
        EXPECT_EQ(greedyMax(S.C, S.Lat, GroupSize), Ref);
      }
    }
}

TEST(RegroupFast, GreedyWithoutTiesHasTheReferencesGroups) {
  for (uint32_t Seed = 1; Seed <= 3; ++Seed)
    for (const Instance &I : Instances) {
      Trial S(I, Seed, /*Ties=*/false);
      S.expectSameEstimates(greedy(S.C, S.Lat, 32), greedyReference(S.B.view(), S.Lat, 32));
    }
}

TEST(RegroupFast, GreedyWithTiesIsWithinOnePoint) {
  for (uint32_t Seed = 1; Seed <= 3; ++Seed)
    for (const Instance &I : Instances) {
      Trial S(I, Seed);
      S.expectClose(greedy(S.C, S.Lat, 32), greedyReference(S.B.view(), S.Lat, 32));
    }
}

// Pieces merged at the end and narrow windows are approximations for large
// launches (their cost is in benchmarks/results/cpu); whatever they choose,
// D stays a permutation and identical threads stay together.
TEST(RegroupFast, ApproximationsKeepTheInvariants) {
  GreedyOptions Small;
  Small.Window = 2;
  Small.ChunkClasses = 3;
  Small.Workers = 2;
  Bbvs B(300, 3);
  for (uint32_t T = 0; T < 300; ++T)
    B.setRow(T, {1, T % 5, T % 5 ? 0u : 7u});
  BbvClasses C = findClasses(B.view(), 2);
  std::vector<double> Lat = {1, 3, 2};
  for (const std::vector<uint32_t> &D : {greedy(C, Lat, 32, Small), greedyMax(C, Lat, 32, Small)}) {
    ASSERT_TRUE(test::isPermutation(D, 300));
    // 60 threads per kind: at most one warp holds two kinds per kind boundary.
    EXPECT_LE(threadBlockTimes(C, Lat, D.data(), 64).DivergentWarps, 5u);
  }
}

// Two kinds of thread alternating: regrouping removes all divergence, and
// the choice is the best estimate with redirection paid for, the earlier
// algorithm on a tie.
TEST(ChooseRegrouping, ChoosesWhenTheGainPaysForRedirection) {
  Bbvs B(256, 2);
  for (uint32_t T = 0; T < 256; ++T)
    B.setRow(T, {1, T % 2 ? 100u : 0u});
  RegroupRequest R;
  R.Bbv = B.view();
  R.BlockSize = 32;
  R.BlockLatency = {1, 10};
  R.Gpu = {3, 1};
  R.Price.PerWarp = 10;
  R.Search.Workers = 2;
  RegroupDecision D = chooseRegrouping(R);
  EXPECT_EQ(D.Classes, 2u);
  ASSERT_EQ(D.Outcomes.size(), 3u);
  double Best = -1;
  size_t First = 0;
  for (size_t I = 0; I < D.Outcomes.size(); ++I) {
    const AlgorithmOutcome &O = D.Outcomes[I];
    EXPECT_EQ(O.After.Plain.DivergentWarps, 0u);
    EXPECT_GT(O.RedirectedGain.BbvWeighted, 0.3);
    if (O.RedirectedGain.BbvWeightedScheduled > Best) {
      Best = O.RedirectedGain.BbvWeightedScheduled;
      First = I;
    }
  }
  ASSERT_TRUE(D.Chosen);
  EXPECT_EQ(*D.Chosen, First);
  // Light blocks first leave a heavy one for last: Sorting schedules worse.
  EXPECT_LT(D.Outcomes[0].RedirectedGain.BbvWeightedScheduled, Best);

  // A price larger than the divergence removed: keep the launch as it is.
  R.Price.PerWarp = 1e4;
  EXPECT_FALSE(chooseRegrouping(R).Chosen);

  // More distinct BBVs than the greedy algorithms may take: Sorting alone.
  R.MaxGreedyClasses = 1;
  D = chooseRegrouping(R);
  ASSERT_EQ(D.Outcomes.size(), 1u);
  EXPECT_EQ(D.Outcomes[0].Algo, Algorithm::Sorting);
  EXPECT_EQ(D.Skipped, (std::vector<Algorithm>{Algorithm::Greedy, Algorithm::GreedyMax}));
}

// One wave on an issue-bound SM: 4 blocks of 2 warps share 4 slots of one
// SM that issues for 4 of its 8 warps at a time. Every warp has heavy lanes;
// gathered, the light warps leave early and the heavy ones get the SM. The
// scheduled estimate sees the heaviest block unchanged (0% gain) and keeps
// the launch; with instruction counts the choice follows SM-shared (49.5%).
TEST(ChooseRegrouping, WithInstructionsTheChoiceFollowsSmShared) {
  Bbvs B(256, 2);
  for (uint32_t T = 0; T < 256; ++T)
    B.setRow(T, {1, T % 2 ? 100u : 0u});
  RegroupRequest R;
  R.Bbv = B.view();
  R.BlockSize = 64;
  R.BlockLatency = {1, 1};
  R.Gpu = {1, 4};
  R.Algorithms = {Algorithm::Sorting};
  R.MinImprovement = 0.05;
  RegroupDecision Scheduled = chooseRegrouping(R);
  ASSERT_EQ(Scheduled.Outcomes.size(), 1u);
  EXPECT_FALSE(Scheduled.Outcomes[0].SmSharedGain);
  EXPECT_NEAR(Scheduled.Outcomes[0].RedirectedGain.BbvWeightedScheduled, 0.0, 1e-12);
  EXPECT_FALSE(Scheduled.Chosen);

  R.BlockInstructions = {1, 1};
  RegroupDecision Shared = chooseRegrouping(R);
  ASSERT_TRUE(Shared.Outcomes[0].SmSharedGain);
  EXPECT_NEAR(*Shared.Outcomes[0].SmSharedGain, (202.0 - 102.0) / 202.0, 1e-9);
  EXPECT_DOUBLE_EQ(Shared.Outcomes[0].decisionGain(), *Shared.Outcomes[0].SmSharedGain);
  ASSERT_TRUE(Shared.Chosen);
  EXPECT_EQ(*Shared.Chosen, 0u);

  R.BlockInstructions = {1};
  EXPECT_THROW(chooseRegrouping(R), std::invalid_argument);
}

TEST(ChooseRegrouping, RejectsInputsThatDoNotFit) {
  Bbvs B(64, 2);
  RegroupRequest R;
  R.Bbv = B.view();
  R.BlockSize = 64;
  R.BlockLatency = {1};
  EXPECT_THROW(chooseRegrouping(R), std::invalid_argument);
  R.BlockLatency = {1, 1};
  R.GroupSize = 48;
  EXPECT_THROW(chooseRegrouping(R), std::invalid_argument);
  R.GroupSize = 32;
  R.BlockSize = 0;
  EXPECT_THROW(chooseRegrouping(R), std::invalid_argument);
}

} // namespace
} // namespace divopt
