// Seed 002 eqs. (2)-(5), divergent warps and the price of redirection, on
// launches small enough to work out by hand.
#include "BbvTestData.h"
#include "TestKernels.h"
#include "latency/LatencyTable.h"
#include "latency/UnitLatencyTable.h"
#include "model/BbvClasses.h"
#include "model/LaunchMetrics.h"
#include "model/RedirectionPrice.h"
#include "model/ThreadBlockTimes.h"
#include "profile/DivergenceStats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

namespace divopt {
namespace {
using test::Bbvs;

// 64 threads, 2 blocks of lat 10 and 100. Thread t runs block 0 once and
// block 1 t % 4 times: every warp's max is 3.
Bbvs loopByLane() {
  Bbvs B(64, 2);
  for (uint32_t T = 0; T < 64; ++T)
    B.setRow(T, {1, T % 4});
  return B;
}

TEST(PerformanceModel, WarpAndBlockEstimatesFollowEquations2To4) {
  Bbvs B = loopByLane();
  BbvClasses C = findClasses(B.view(), 1);
  // T_w = 10 * 1 + 100 * 3 = 310 per warp; blocks of 64 threads hold 2 warps.
  ThreadBlockTimes T = threadBlockTimes(C, {10, 100}, nullptr, 64);
  ASSERT_EQ(T.Cycles.size(), 1u);
  EXPECT_EQ(T.Cycles[0], 620);
  EXPECT_EQ(T.Warps[0], 2u);
  EXPECT_EQ(T.DivergentWarps, 2u);
  // Blocks of 32 threads: two thread blocks of one warp each.
  T = threadBlockTimes(C, {10, 100}, nullptr, 32);
  EXPECT_EQ(T.Cycles, (std::vector<double>{310, 310}));
}

TEST(PerformanceModel, KernelEstimateIsEquation5) {
  Bbvs B = loopByLane();
  BbvClasses C = findClasses(B.view(), 1);
  ThreadBlockTimes T = threadBlockTimes(C, {10, 100}, nullptr, 32);
  LaunchMetrics M = launchMetrics(T, {2, 1});
  EXPECT_EQ(M.BbvWeighted, (310 + 310) / 2.0);
  EXPECT_EQ(M.BbvWeightedScheduled, 310);
  EXPECT_EQ(M.Warps, 2u);
  EXPECT_EQ(M.DivergentWarps, 2u);
}

// Lanes with equal trip counts side by side: each warp runs only its own max.
TEST(PerformanceModel, RegroupedOrderChangesTheEstimate) {
  Bbvs B = loopByLane();
  BbvClasses C = findClasses(B.view(), 1);
  std::vector<uint32_t> D(64);
  std::iota(D.begin(), D.end(), 0u);
  std::stable_sort(D.begin(), D.end(), [](uint32_t A, uint32_t X) { return A % 4 < X % 4; });
  // Warp 0: trips 0 (16 lanes) and 1 (16 lanes); warp 1: 2 and 3.
  ThreadBlockTimes T = threadBlockTimes(C, {10, 100}, D.data(), 64);
  EXPECT_EQ(T.Cycles[0], (10 + 100) + (10 + 300));
  EXPECT_EQ(T.DivergentWarps, 2u);
}

// N not a multiple of 32 or of the block size: threads past the end add
// nothing, and the last thread block and warp are short.
TEST(PerformanceModel, TailsArePartialWarpsAndBlocks) {
  Bbvs B(70, 1);
  for (uint32_t T = 0; T < 70; ++T)
    B.setRow(T, {T < 64 ? 1u : 5u});
  BbvClasses C = findClasses(B.view(), 1);
  ThreadBlockTimes T = threadBlockTimes(C, {2}, nullptr, 48);
  // Blocks of 48: [0,48) = warps of 32 and 16; [48,70) = one warp of 22 with
  // lanes 64..69 at 5.
  ASSERT_EQ(T.Cycles.size(), 2u);
  EXPECT_EQ(T.Cycles[0], 2 + 2);
  EXPECT_EQ(T.Cycles[1], 10);
  EXPECT_EQ(T.Warps, (std::vector<uint32_t>{2, 1}));
  EXPECT_EQ(T.DivergentWarps, 1u);
}

// The model's divergent warps are the report's, thread block by thread block.
TEST(PerformanceModel, DivergentWarpsMatchTheReport) {
  LaunchProfile P = test::launchOf(test::kernelWithBlocks(3), {5, 1, 1}, {96, 1, 1});
  Bbvs B = test::randomBbvs(480, 3, 3, 3, 7);
  P.Counts = B.Counts;
  BbvClasses C = findClasses(B.view(), 2);
  ThreadBlockTimes T = threadBlockTimes(C, {1, 1, 1}, nullptr, 96);
  LaunchStats S = computeLaunchStats(P);
  EXPECT_EQ(T.warps(), S.Warps);
  EXPECT_EQ(T.DivergentWarps, S.DivergentWarps);
}

TEST(PerformanceModel, ImprovementIsTheShareRemoved) {
  EXPECT_EQ(improvement(200, 150), 0.25);
  EXPECT_EQ(improvement(200, 300), -0.5);
  EXPECT_EQ(improvement(0, 10), 0);
  Improvement I = improvement(LaunchMetrics{4, 4, 100, 50}, LaunchMetrics{4, 1, 80, 25});
  EXPECT_EQ(I.DivergentWarps, 0.75);
  EXPECT_EQ(I.BbvWeighted, 0.2);
  EXPECT_EQ(I.BbvWeightedScheduled, 0.5);
}

TEST(RedirectionPrice, OneLoadPerWarpUntilAccessesAreMarked) {
  LatencyTable T = unitLatencyTable();
  RedirectionPrice P = priceRedirection(T);
  EXPECT_EQ(P.PerWarp, T.lookup("ld.global").Cycles);
  EXPECT_TRUE(P.PerBlock.empty());
  EXPECT_TRUE(P.Guessed.empty());
}

TEST(RedirectionPrice, ScatteredAccessesMakeTheirBlocksDearer) {
  LatencyTable T = unitLatencyTable();
  RedirectionPrice P = priceRedirection(T, {0, 2});
  double Load = T.lookup("ld.global").Cycles;
  // No "ld.global.scattered" in the table: 7 x a coalesced load each.
  EXPECT_EQ(P.PerBlock, (std::vector<double>{0, 2 * 7 * Load}));
  EXPECT_EQ(P.Guessed, std::vector<std::string>{"ld.global.scattered"});
  T.Entries["ld.global.scattered"] = {Load + 300, std::nullopt};
  EXPECT_EQ(priceRedirection(T, {1}).PerBlock, std::vector<double>{300});
}

// The price turns a predicted gain into a loss when the divergence it
// removes is small: the case the H200 measurement warns about.
TEST(RedirectionPrice, EvaluateReportsWithAndWithout) {
  Bbvs B = loopByLane();
  BbvClasses C = findClasses(B.view(), 1);
  RedirectionPrice P;
  P.PerWarp = 50;
  P.PerBlock = {0, 1};
  std::vector<uint32_t> D(64);
  std::iota(D.begin(), D.end(), 0u);
  Evaluation E = evaluate(C, {10, 100}, D.data(), 64, {1, 1}, P);
  EXPECT_EQ(E.Plain.BbvWeighted, 620);
  // lat[1] becomes 101, and each of the two warps loads D.
  EXPECT_EQ(E.Redirected.BbvWeighted, 2 * (10 + 101 * 3) + 2 * 50);
  P.PerBlock = {1};
  EXPECT_THROW(evaluate(C, {10, 100}, D.data(), 64, {1, 1}, P), std::invalid_argument);
}

// Eqs. (2)-(4) lane by lane from the raw counts, as written in the paper:
// what the pricing of distinct classes (and of repeated class sets, on
// launches of few classes) must reproduce bit for bit.
std::vector<double> laneByLane(const Bbvs &B, const std::vector<double> &Lat,
                               const std::vector<uint32_t> &D, uint32_t BlockSize) {
  std::vector<double> Cycles((B.Threads + BlockSize - 1) / BlockSize, 0.0);
  for (uint32_t G = 0; G < Cycles.size(); ++G) {
    uint32_t End = std::min(B.Threads, (G + 1) * BlockSize);
    for (uint32_t W = G * BlockSize; W < End; W += 32) {
      double Sum = 0;
      for (uint32_t Bb = 0; Bb < B.Blocks; ++Bb) {
        uint32_t Max = 0;
        for (uint32_t P = W; P < std::min(End, W + 32); ++P)
          Max = std::max(Max, B.view().count(Bb, D[P]));
        Sum += Lat[Bb] * Max;
      }
      Cycles[G] += Sum;
    }
  }
  return Cycles;
}

TEST(PerformanceModel, SharedPassesMatchLaneByLane) {
  for (uint32_t Patterns : {5u, 64u, 65u, 400u}) {
    Bbvs B = test::randomBbvs(1000, 6, Patterns, 9, Patterns);
    BbvClasses C = findClasses(B.view(), 2);
    std::vector<double> Lat{3.5, 10, 0.25, 7, 100, 1.125}, Dearer{4.5, 10, 0.25, 9, 100, 2.125};
    std::vector<uint32_t> D(B.Threads);
    std::iota(D.begin(), D.end(), 0u);
    std::mt19937 Rng(Patterns);
    std::shuffle(D.begin(), D.end(), Rng);
    for (uint32_t BlockSize : {96u, 100u}) {
      auto Both = threadBlockTimesUnder(C, {&Lat, &Dearer}, D.data(), BlockSize, 2);
      EXPECT_EQ(Both[0].Cycles, laneByLane(B, Lat, D, BlockSize)) << Patterns << " " << BlockSize;
      EXPECT_EQ(Both[1].Cycles, laneByLane(B, Dearer, D, BlockSize)) << Patterns << " " << BlockSize;
    }
  }
}

TEST(BbvClasses, IdenticalThreadsShareAClassNumberedByFirstThread) {
  Bbvs B({{1, 2}, {3, 4}, {1, 2}, {5, 6}, {3, 4}});
  BbvClasses C = findClasses(B.view(), 1);
  EXPECT_EQ(C.ClassOf, (std::vector<uint32_t>{0, 1, 0, 2, 1}));
  EXPECT_EQ(C.First, (std::vector<uint32_t>{0, 1, 3}));
  EXPECT_EQ(C.Size, (std::vector<uint32_t>{2, 2, 1}));
  EXPECT_EQ(C.Rows, (std::vector<uint32_t>{1, 2, 3, 4, 5, 6}));
}

// A hash that sees only the first block puts different BBVs in one bucket:
// the check against the bucket's first thread splits them again.
TEST(BbvClasses, HashCollisionsCostTimeNotCorrectness) {
  Bbvs B = test::randomBbvs(300, 4, 12, 3, 11);
  BbvClasses Good = findClasses(B.view(), 2);
  BbvClasses Weak = findClasses(B.view(), 2, [](uint64_t H, uint32_t C) {
    return H ? H : uint64_t(C) + 1;
  });
  EXPECT_EQ(Weak.ClassOf, Good.ClassOf);
  EXPECT_EQ(Weak.First, Good.First);
  EXPECT_EQ(Weak.Size, Good.Size);
  EXPECT_EQ(Weak.Rows, Good.Rows);
}

} // namespace
} // namespace divopt
