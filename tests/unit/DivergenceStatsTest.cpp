// Report arithmetic on hand-made launches whose answers are worked out by hand.
#include "profile/DivergenceStats.h"
#include "TestKernels.h"

#include <gtest/gtest.h>
#include <map>
#include <stdexcept>

namespace divopt {
namespace {
using test::gtid;
using test::kernelWithBlocks;
using test::launchOf;

void set(LaunchProfile &P, unsigned Bb, uint64_t Thread, uint32_t Count) {
  P.Counts[Bb * P.Header.threads() + Thread] = Count;
}

const BlockStats &block(const LaunchStats &S, unsigned Id) {
  for (const BlockStats &B : S.Blocks)
    if (B.Id == Id)
      return B;
  throw std::out_of_range("no block " + std::to_string(Id));
}

TEST(DivergenceStats, UniformLaunchHasNoDivergence) {
  LaunchProfile P = launchOf(kernelWithBlocks(3, 4), {2, 1, 1}, {64, 1, 1});
  for (uint64_t T = 0; T < P.Header.threads(); ++T) {
    set(P, 0, T, 1);
    set(P, 1, T, 5);
  }
  LaunchStats S = computeLaunchStats(P);
  EXPECT_EQ(S.Threads, 128u);
  EXPECT_EQ(S.Warps, 4u);
  EXPECT_EQ(S.BasicBlocks, 3u);
  EXPECT_EQ(S.DivergentWarps, 0u);
  EXPECT_EQ(S.divergentWarpRatio(), 0.0);
  EXPECT_EQ(S.DivergenceCost, 0.0);
  EXPECT_EQ(block(S, 1).Executions, 640u);
  EXPECT_EQ(block(S, 1).WarpMaxSum, 20u);
  EXPECT_EQ(block(S, 1).WarpMeanSum, 20.0);
  EXPECT_EQ(block(S, 1).simtEfficiency(), 1.0);
  EXPECT_FALSE(block(S, 2).executed());
  EXPECT_EQ(block(S, 2).simtEfficiency(), 1.0);
}

// if (tid % 2) else-block; else then-block: half of every warp idles in each.
TEST(DivergenceStats, ParityIfElseDivergesEveryWarp) {
  LaunchProfile P = launchOf(kernelWithBlocks(4, 4, {0}), {1, 1, 1}, {128, 1, 1});
  for (uint64_t T = 0; T < 128; ++T) {
    set(P, 0, T, 1);
    set(P, T % 2 ? 2 : 1, T, 1);
    set(P, 3, T, 1);
  }
  P.Branches = {4, 4};
  LaunchStats S = computeLaunchStats(P);
  EXPECT_EQ(S.Warps, 4u);
  EXPECT_EQ(S.DivergentWarps, 4u);
  EXPECT_EQ(S.divergentWarpRatio(), 1.0);
  for (unsigned Bb : {1u, 2u}) {
    const BlockStats &B = block(S, Bb);
    EXPECT_EQ(B.Executions, 64u);
    EXPECT_EQ(B.WarpMaxSum, 4u);
    EXPECT_EQ(B.WarpMeanSum, 2.0);
    EXPECT_EQ(B.simtEfficiency(), 0.5);
    EXPECT_EQ(B.DivergenceCost, 4 * (1 - 0.5) * 4); // 4 warps x (max - mean) x 4 instructions
  }
  EXPECT_EQ(block(S, 0).DivergenceCost, 0.0);
  EXPECT_EQ(S.DivergenceCost, 16.0);
  EXPECT_EQ(S.divergentBranchRatio(), 1.0);
}

// for (i = 0; i < tid % 32; ++i) body: per warp max 31, mean 15.5.
TEST(DivergenceStats, LoopTripCountByLane) {
  LaunchProfile P = launchOf(kernelWithBlocks(3, 10, {1}), {1, 1, 1}, {64, 1, 1});
  for (uint64_t T = 0; T < 64; ++T) {
    set(P, 0, T, 1);
    set(P, 1, T, uint32_t(T % 32));
    set(P, 2, T, 1);
  }
  P.Branches = {62, 60};
  LaunchStats S = computeLaunchStats(P);
  const BlockStats &Body = block(S, 1);
  EXPECT_EQ(S.DivergentWarps, 2u);
  EXPECT_EQ(Body.Executions, 2u * 496); // 2 warps x (0 + 1 + ... + 31)
  EXPECT_EQ(Body.WarpMaxSum, 62u);
  EXPECT_EQ(Body.WarpMeanSum, 31.0);
  EXPECT_EQ(Body.DivergenceCost, 2 * (31 - 15.5) * 10);
  EXPECT_EQ(S.DivergenceCost, 310.0);
  EXPECT_EQ(S.Blocks.front().Id, 1u);
  EXPECT_EQ(S.BranchExecutions, 62u);
  EXPECT_EQ(S.DivergentBranches, 60u);
  EXPECT_DOUBLE_EQ(S.divergentBranchRatio(), 60.0 / 62.0);
}

// Blocks of 48 threads hold a full warp and a warp of 16; warps never span
// two thread blocks.
TEST(DivergenceStats, PartialLastWarpOfEachThreadBlock) {
  LaunchProfile P = launchOf(kernelWithBlocks(2, 3), {2, 1, 1}, {48, 1, 1});
  for (uint32_t B = 0; B < 2; ++B)
    for (uint32_t T = 32; T < 48; ++T)
      set(P, 0, gtid(P.Header, {B, 0, 0}, {T, 0, 0}), 1);
  LaunchStats S = computeLaunchStats(P);
  EXPECT_EQ(S.Warps, 4u);
  EXPECT_EQ(S.DivergentWarps, 0u) << "a warp spanned two thread blocks";
  EXPECT_EQ(block(S, 0).WarpMaxSum, 2u);
  EXPECT_EQ(block(S, 0).WarpMeanSum, 2.0);

  // Half of the 16 lanes run twice: the partial warp's mean is 1, not 0.5.
  for (uint32_t T = 32; T < 48; ++T)
    set(P, 1, gtid(P.Header, {0, 0, 0}, {T, 0, 0}), T < 40 ? 2 : 0);
  S = computeLaunchStats(P);
  EXPECT_EQ(S.DivergentWarps, 1u);
  EXPECT_EQ(block(S, 1).WarpMaxSum, 2u);
  EXPECT_EQ(block(S, 1).WarpMeanSum, 1.0);
  EXPECT_EQ(block(S, 1).DivergenceCost, (2 - 1.0) * 3);
}

// Block 8x8: linear thread id x + 8y, so warp 0 is rows 0-3 and warp 1 rows 4-7.
TEST(DivergenceStats, TwoDimensionalBlocks) {
  LaunchProfile P = launchOf(kernelWithBlocks(2), {2, 2, 1}, {8, 8, 1});
  for (uint32_t Bx = 0; Bx < 2; ++Bx)
    for (uint32_t By = 0; By < 2; ++By)
      for (uint32_t X = 0; X < 8; ++X)
        for (uint32_t Y = 0; Y < 8; ++Y) {
          uint64_t T = gtid(P.Header, {Bx, By, 0}, {X, Y, 0});
          set(P, 0, T, Y >= 4);           // uniform within each warp
          set(P, 1, T, By == 1 && X < 4); // splits the warps of blocks with y = 1
        }
  LaunchStats S = computeLaunchStats(P);
  EXPECT_EQ(S.Threads, 256u);
  EXPECT_EQ(S.Warps, 8u);
  EXPECT_EQ(S.DivergentWarps, 4u);
  EXPECT_EQ(block(S, 0).DivergenceCost, 0.0);
  EXPECT_EQ(block(S, 0).WarpMaxSum, 4u);
  EXPECT_EQ(block(S, 1).WarpMaxSum, 4u);
  EXPECT_EQ(block(S, 1).WarpMeanSum, 2.0);
  EXPECT_EQ(block(S, 1).Executions, 64u);
}

// The compact form of P (as ProfileIndex::loadClasses loads a version-3
// record): a class per distinct vector, in order of first thread, except
// that the threads of Split's class from thread SplitAt on get a class of
// their own with the same counts (classes need not differ in block counts:
// they are distinct counter vectors, and edge counters can sum alike).
LaunchProfile compactOf(const LaunchProfile &P, uint64_t SplitAt) {
  LaunchProfile C = P;
  uint64_t T = P.Header.threads();
  size_t Blocks = P.Kernel.Blocks.size();
  std::map<std::vector<uint32_t>, uint32_t> Ids;
  C.ClassOf.resize(T);
  for (uint64_t G = 0; G < T; ++G) {
    std::vector<uint32_t> V(Blocks);
    for (size_t Bb = 0; Bb < Blocks; ++Bb)
      V[Bb] = P.Counts[Bb * T + G];
    auto [It, New] = Ids.emplace(V, uint32_t(Ids.size()));
    if (New)
      C.ClassCounts.insert(C.ClassCounts.end(), V.begin(), V.end());
    C.ClassOf[G] = It->second;
  }
  uint32_t Split = C.ClassOf[SplitAt];
  C.NumClasses = uint32_t(Ids.size()) + 1;
  C.ClassCounts.insert(C.ClassCounts.end(), C.ClassCounts.begin() + Split * Blocks,
                       C.ClassCounts.begin() + (Split + 1) * Blocks);
  for (uint64_t G = SplitAt; G < T; ++G)
    if (C.ClassOf[G] == Split)
      C.ClassOf[G] = C.NumClasses - 1;
  C.Counts.clear();
  return C;
}

// Blocks of 48 threads (a partial warp each), uniform warps of several
// classes, divergent warps, and a class split in two mid-warp: the compact
// form's figures are the dense form's.
TEST(DivergenceStats, CompactFormGivesTheDenseFigures) {
  LaunchProfile P = launchOf(kernelWithBlocks(5, 3, {0, 2}), {6, 1, 1}, {48, 1, 1});
  for (uint64_t T = 0; T < P.Header.threads(); ++T) {
    uint64_t Warp = T / 16; // 16 threads share a pattern: warps of one or two
    set(P, 0, T, 1);
    set(P, 1, T, uint32_t(Warp % 3));
    set(P, 2, T, Warp % 4 == 1 ? uint32_t(T % 5) : 2);
    set(P, 4, T, 1);
  }
  P.Branches = {7, 3, 5, 1};
  LaunchProfile C = compactOf(P, 40); // lanes 8-15 of block 0's second warp
  ASSERT_TRUE(compactOnly(C));
  LaunchStats Dense = computeLaunchStats(P), Compact = computeLaunchStats(C);
  EXPECT_GT(Dense.DivergentWarps, 0u);
  EXPECT_LT(Dense.DivergentWarps, Dense.Warps);
  EXPECT_EQ(Compact.Warps, Dense.Warps);
  EXPECT_EQ(Compact.DivergentWarps, Dense.DivergentWarps);
  EXPECT_EQ(Compact.DivergenceCost, Dense.DivergenceCost);
  EXPECT_EQ(Compact.BranchExecutions, Dense.BranchExecutions);
  ASSERT_EQ(Compact.Blocks.size(), Dense.Blocks.size());
  for (size_t I = 0; I < Dense.Blocks.size(); ++I) {
    EXPECT_EQ(Compact.Blocks[I].Id, Dense.Blocks[I].Id);
    EXPECT_EQ(Compact.Blocks[I].Executions, Dense.Blocks[I].Executions);
    EXPECT_EQ(Compact.Blocks[I].WarpMaxSum, Dense.Blocks[I].WarpMaxSum);
    EXPECT_DOUBLE_EQ(Compact.Blocks[I].WarpMeanSum, Dense.Blocks[I].WarpMeanSum);
  }
  for (uint64_t T = 0; T < P.Header.threads(); ++T)
    for (unsigned Bb = 0; Bb < 5; ++Bb)
      ASSERT_EQ(blockCount(C, Bb, T), blockCount(P, Bb, T)) << "thread " << T << " block " << Bb;

  C.ClassOf.pop_back();
  EXPECT_THROW(computeLaunchStats(C), std::invalid_argument) << "a class id short";
}

TEST(DivergenceStats, RanksByCostThenId) {
  LaunchProfile P = launchOf(kernelWithBlocks(5), {1, 1, 1}, {32, 1, 1});
  // Lane 0 alone runs block b Extra[b] times: cost = Extra * (1 - 1/32).
  const uint32_t Extra[5] = {0, 32, 8, 32, 0};
  for (unsigned Bb = 0; Bb < 5; ++Bb)
    set(P, Bb, 0, Extra[Bb]);
  LaunchStats S = computeLaunchStats(P);
  std::vector<unsigned> Order;
  for (const BlockStats &B : S.Blocks)
    Order.push_back(B.Id);
  EXPECT_EQ(Order, (std::vector<unsigned>{1, 3, 2, 0, 4}));
  EXPECT_EQ(S.Blocks[0].DivergenceCost, 31.0);
  EXPECT_EQ(S.Blocks[0].FirstLine, 12u) << "notes travel with the ranked block";
}

TEST(DivergenceStats, BranchTotalsAndRatio) {
  LaunchProfile P = launchOf(kernelWithBlocks(4, 1, {0, 1, 2}), {1, 1, 1}, {32, 1, 1});
  P.Branches = {10, 2, 0, 0, 6, 6};
  LaunchStats S = computeLaunchStats(P);
  EXPECT_EQ(S.BranchExecutions, 16u);
  EXPECT_EQ(S.DivergentBranches, 8u);
  EXPECT_EQ(S.divergentBranchRatio(), 0.5);
  ASSERT_EQ(S.Branches.size(), 3u);
  EXPECT_EQ(S.Branches[2].Block, 2u);
  EXPECT_EQ(S.Branches[2].Executed, 6u);

  P.Branches = {0, 0, 0, 0, 0, 0};
  EXPECT_EQ(computeLaunchStats(P).divergentBranchRatio(), 0.0) << "no executed branch";
}

// A clone that counted branches in every eighth thread block: the sums are
// scaled to all blocks, and the stats say from how many they come.
TEST(DivergenceStats, SampledBranchesAreScaledToEveryBlock) {
  KernelNote K = kernelWithBlocks(4, 1, {0, 1});
  K.HasBranchSampling = true;
  K.Sampling = {8, 2048};
  LaunchProfile P = launchOf(K, {20, 1, 1}, {128, 1, 1}); // 2560 threads, 20 blocks
  P.Branches = {12, 3, 0, 0}; // blocks 0, 8 and 16: 4 warps each, a quarter divergent
  LaunchStats S = computeLaunchStats(P);
  EXPECT_EQ(S.ThreadBlocks, 20u);
  EXPECT_EQ(S.BranchCountedBlocks, 3u);
  EXPECT_TRUE(S.branchesSampled());
  EXPECT_EQ(S.Branches[0].Executed, 80u) << "12 * 20 / 3";
  EXPECT_EQ(S.Branches[0].Divergent, 20u);
  EXPECT_EQ(S.BranchExecutions, 80u);
  EXPECT_EQ(S.divergentBranchRatio(), 0.25);

  LaunchProfile Small = launchOf(K, {10, 1, 1}, {128, 1, 1}); // under min_threads
  Small.Branches = {40, 10, 0, 0};
  LaunchStats Exact = computeLaunchStats(Small);
  EXPECT_FALSE(Exact.branchesSampled());
  EXPECT_EQ(Exact.BranchExecutions, 40u) << "counted in every block: as recorded";
}

TEST(DivergenceStats, RejectsCountersThatDoNotMatchTheNotes) {
  LaunchProfile P = launchOf(kernelWithBlocks(2, 1, {0}), {1, 1, 1}, {32, 1, 1});
  P.Counts.pop_back();
  EXPECT_THROW(computeLaunchStats(P), std::invalid_argument);
  P = launchOf(kernelWithBlocks(2, 1, {0}), {1, 1, 1}, {32, 1, 1});
  P.Branches.push_back(0);
  EXPECT_THROW(computeLaunchStats(P), std::invalid_argument);
}

} // namespace
} // namespace divopt
