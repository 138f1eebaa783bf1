// Online mode's arithmetic (runtime/online/OnlineEstimate.h), which the GPU
// runs in its decision kernels: the dealt layout is a permutation that
// balances blocks, the estimate prefers fewer long warps, and the guard
// keeps a regrouping only for a real gain.
#include "online/OnlineEstimate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <vector>

using namespace divopt::rt::online;

namespace {

// The dealt layout from sorted costs: physical position -> cost.
std::vector<float> dealt(const std::vector<float> &Sorted, const Machine &M) {
  std::vector<float> Out(Sorted.size());
  for (uint32_t P = 0; P < Sorted.size(); ++P)
    Out[P] = Sorted[dealtSource(P, M)];
  return Out;
}

std::vector<float> blockSums(const std::vector<float> &Costs, const Machine &M) {
  std::vector<float> Sums(M.Blocks);
  for (uint32_t P = 0; P < Costs.size(); P += 32) {
    float Max = *std::max_element(Costs.begin() + P, Costs.begin() + P + 32);
    Sums[P / M.ThreadsPerBlock] += Max;
  }
  return Sums;
}

// A layout's cost from its costs by physical position.
LayoutCost layoutCost(const std::vector<float> &Costs, const Machine &M) {
  std::vector<float> Sums = blockSums(Costs, M);
  return {std::accumulate(Sums.begin(), Sums.end(), 0.0),
          *std::max_element(Sums.begin(), Sums.end())};
}

} // namespace

// The gain bound (GainBound.h) turns a shape away where the launch as written
// is within MinGain of bestCaseCycles: that must never hide a layout the
// decision would have chosen.
TEST(OnlineEstimate, NoLayoutEstimatesBelowTheBestCase) {
  Machine M{132, 64, 128};
  uint32_t N = M.Blocks * M.ThreadsPerBlock;
  uint32_t Seed = 12345;
  for (int Round = 0; Round < 20; ++Round) {
    std::vector<float> Costs(N);
    for (float &C : Costs) {
      Seed = Seed * 1664525u + 1013904223u;
      C = float((Seed >> 8) % (Round % 2 ? 1000 : 20) + 1);
    }
    double Total = std::accumulate(Costs.begin(), Costs.end(), 0.0);
    float MaxWarp = *std::max_element(Costs.begin(), Costs.end());
    double Best = bestCaseCycles(Total, MaxWarp, M);
    std::vector<float> Sorted = Costs;
    std::sort(Sorted.begin(), Sorted.end(), std::greater<float>());
    LayoutCost AsSorted = layoutCost(Sorted, M);
    for (LayoutCost C : {layoutCost(Costs, M), AsSorted, layoutCost(dealt(Sorted, M), M),
                         dealtCost(AsSorted, MaxWarp, M)})
      EXPECT_GE(estimateCycles(C, MaxWarp, M), Best * (1 - 1e-6));
  }
}

TEST(OnlineEstimate, BestCaseTurnsAwayOnlyLaunchesWithNothingToGain) {
  Machine M{132, 2048, 128}; // many waves: the warps' sum, not the longest warp, sets the time
  uint32_t N = M.Blocks * M.ThreadsPerBlock;
  // Every thread alike but a bounds check's idle tail: nothing to gain.
  std::vector<float> Uniform(N, 40.0f);
  for (uint32_t T = N - 100; T < N; ++T)
    Uniform[T] = 2.0f;
  double Total = std::accumulate(Uniform.begin(), Uniform.end(), 0.0);
  double AsWritten = estimateCycles(layoutCost(Uniform, M), 40.0f, M);
  EXPECT_FALSE(regroupingMayGain(AsWritten, bestCaseCycles(Total, 40.0f, M), 0.05));
  // One thread in eight runs 32 times as long, spread over every warp.
  std::vector<float> Skewed(N, 8.0f);
  for (uint32_t T = 0; T < N; T += 8)
    Skewed[T] = 256.0f;
  Total = std::accumulate(Skewed.begin(), Skewed.end(), 0.0);
  AsWritten = estimateCycles(layoutCost(Skewed, M), 256.0f, M);
  EXPECT_TRUE(regroupingMayGain(AsWritten, bestCaseCycles(Total, 256.0f, M), 0.05));
}

// The ski-rental rule: a decision waits until the launches run as written
// could have saved, at the bound's best, what it costs.
TEST(OnlineEstimate, ShortLaunchesDeferTheDecisionUntilItCouldHavePaid) {
  uint32_t Threads = 1 << 21;
  double Cost = decisionCostMs(Threads);
  EXPECT_GT(Cost, 0.25);
  // A millisecond that may gain a third pays at once.
  EXPECT_TRUE(decisionPays(1, 1.0, 3.0, 2.0, Threads));
  // 24 us that may gain 80%: not before the launches seen saved the cost.
  uint64_t Needed = 0;
  while (!decisionPays(Needed, 0.024, 5.0, 1.0, Threads))
    ++Needed;
  EXPECT_GE(double(Needed) * 0.024 * 0.8, Cost);
  EXPECT_LT(double(Needed - 1) * 0.024 * 0.8, Cost);
  // No room: never.
  EXPECT_FALSE(decisionPays(1000000, 1.0, 2.0, 2.0, Threads));
}

// Before a later shape's cost clone: its launches run as written until they
// could have paid twice for its bound and a decision.
TEST(OnlineEstimate, LaterShapesRunAsWrittenUntilTheyCouldPayForABound) {
  uint32_t Threads = 800 * 256;
  double Price = boundCostMs(Threads) + decisionCostMs(Threads);
  EXPECT_GT(boundCostMs(Threads), 0.0);
  // A millisecond that may gain a third pays at its second launch.
  EXPECT_FALSE(boundPays(1, 1.0, 0.34, Threads));
  EXPECT_TRUE(boundPays(2, 1.0, 0.34, Threads));
  // 24 us whose trials saved 55% (varying_shapes.cu): neither four launches
  // nor 25 are enough.
  EXPECT_FALSE(boundPays(4, 0.024, 0.55, Threads));
  EXPECT_FALSE(boundPays(25, 0.024, 0.55, Threads));
  uint64_t Needed = 1;
  while (!boundPays(Needed, 0.024, 0.55, Threads))
    ++Needed;
  EXPECT_GE(double(Needed) * 0.024 * 0.55, 2 * Price);
  EXPECT_LT(double(Needed - 1) * 0.024 * 0.55, 2 * Price);
  // A bound waits longer than a decision alone would.
  EXPECT_TRUE(decisionPays(Needed - 1, 0.024, 1.0, 0.45, Threads));
  // No room at all: never.
  EXPECT_FALSE(boundPays(1000000, 1.0, 0.0, Threads));
}

TEST(OnlineEstimate, DealtLayoutIsAPermutation) {
  for (Machine M : {Machine{132, 7, 64}, Machine{132, 1, 1024}, Machine{4, 33, 32}}) {
    uint32_t N = M.Blocks * M.ThreadsPerBlock;
    std::vector<uint32_t> Seen(N, 0);
    for (uint32_t P = 0; P < N; ++P) {
      uint32_t Source = dealtSource(P, M);
      ASSERT_LT(Source, N);
      ++Seen[Source];
    }
    EXPECT_TRUE(std::all_of(Seen.begin(), Seen.end(), [](uint32_t C) { return C == 1; }));
  }
}

TEST(OnlineEstimate, DealtLayoutBalancesBlocksWithinTheBound) {
  Machine M{132, 8, 128}; // 4 warps a block
  std::vector<float> Sorted(M.Blocks * M.ThreadsPerBlock);
  for (size_t T = 0; T < Sorted.size(); ++T)
    Sorted[T] = float(Sorted.size() - T); // descending, every warp distinct
  std::vector<float> Dealt = blockSums(dealt(Sorted, M), M);
  std::vector<float> Contiguous = blockSums(Sorted, M);
  float Total = std::accumulate(Dealt.begin(), Dealt.end(), 0.0f);
  float MaxWarp = Sorted[0];
  float Worst = *std::max_element(Dealt.begin(), Dealt.end());
  EXPECT_LE(Worst, Total / M.Blocks + MaxWarp);
  EXPECT_LT(Worst, *std::max_element(Contiguous.begin(), Contiguous.end()));
  LayoutCost SortedCost{Total, *std::max_element(Contiguous.begin(), Contiguous.end())};
  EXPECT_GE(dealtCost(SortedCost, MaxWarp, M).MaxBlockSum, Worst);
}

TEST(OnlineEstimate, FewerLongWarpsEstimateFaster) {
  Machine M{132, 1000, 256};
  // One long thread in every warp, or the long threads gathered in 1/32 of the warps.
  double Warps = M.Blocks * M.ThreadsPerBlock / 32.0;
  LayoutCost Spread{Warps * 1000, 8 * 1000};
  LayoutCost Gathered{Warps / 32 * 1000 + Warps * 31 / 32 * 10, 8 * 1000};
  EXPECT_GT(estimateCycles(Spread, 1000, M), 5 * estimateCycles(Gathered, 1000, M));
  // Never below the longest warp, however many SMs.
  EXPECT_GE(estimateCycles(LayoutCost{1, 0}, 1000, M), 1000);
}

TEST(OnlineEstimate, GuardKeepsOnlyARealGain) {
  EXPECT_TRUE(regroupedWins(1.0, 0.5, 0.02));
  EXPECT_FALSE(regroupedWins(1.0, 0.99, 0.02)); // within the noise margin
  EXPECT_FALSE(regroupedWins(1.0, 1.3, 0.02));  // slower: memory locality lost
  EXPECT_FALSE(regroupedWins(0.0, 0.5, 0.02));  // a trial that never ran
  EXPECT_FALSE(regroupedWins(1.0, 0.0, 0.02));
  EXPECT_TRUE(canDeal(Machine{1, 1, 64}));
  EXPECT_FALSE(canDeal(Machine{1, 1, 96 + 1}));
  EXPECT_EQ(fullLayout(Machine{1, 1, 64}), Dealt);
  EXPECT_EQ(fullLayout(Machine{1, 1, 97}), Sorted);
}

TEST(OnlineEstimate, ProbeIsASixteenthOfTheBlocksAndCatchesALoss) {
  EXPECT_EQ(probeThreads(Machine{132, 4096, 256}), 256u * 256);
  EXPECT_EQ(probeThreads(Machine{132, 5, 96}), 96u); // at least one block
  // Every sixteenth block, spread over the grid, and nothing else.
  Machine M{132, 40, 64};
  uint32_t Q = 0, Found = 0;
  for (uint32_t P = 0; P < M.Blocks * M.ThreadsPerBlock; ++P)
    if (probeIndex(P, M, Q)) {
      EXPECT_EQ(probeThread(Q, M), P);
      EXPECT_EQ(P / M.ThreadsPerBlock % ProbeShare, 0u);
      ++Found;
    }
  EXPECT_EQ(Found, probeThreads(M)); // blocks 0 and 16
  // The probe is judged against the cost clone, which runs within a few
  // percent of the original (H100, 6c13e5a's and e17ba7f's builds): more than
  // CloneProbeAllowance (with the margin) over it lost; faster by the margin,
  // the full regrouping is timed; in between, the identity layout decides.
  EXPECT_EQ(judgeProbe(0.522, 0.554, CloneProbeAllowance), ProbeOutcome::Unsure); // bfs: 6% over
  EXPECT_EQ(judgeProbe(0.522, 0.580, CloneProbeAllowance), ProbeOutcome::Loses);  // bfs: 11% over
  EXPECT_EQ(judgeProbe(2.287, 2.440, CloneProbeAllowance), ProbeOutcome::Unsure); // walk (nvcc)
  EXPECT_EQ(judgeProbe(1.000, 1.150, CloneProbeAllowance), ProbeOutcome::Loses);  // sl: 15% over
  EXPECT_EQ(judgeProbe(2.592, 2.926, CloneProbeAllowance), ProbeOutcome::Loses);  // mum: 13% over
  EXPECT_EQ(judgeProbe(2.152, 1.892, CloneProbeAllowance), ProbeOutcome::Wins);   // walk
  EXPECT_EQ(judgeProbe(1.028, 0.883, CloneProbeAllowance), ProbeOutcome::Wins);   // Mandelbrot
  EXPECT_EQ(judgeProbe(4.017, 4.076, CloneProbeAllowance), ProbeOutcome::Unsure); // matpow: gains
  EXPECT_EQ(judgeProbe(0.543, 0.551, CloneProbeAllowance), ProbeOutcome::Unsure); // bfs: loses
  EXPECT_EQ(judgeProbe(0.884, 0.885, CloneProbeAllowance), ProbeOutcome::Unsure); // spmv: loses
  EXPECT_EQ(judgeProbe(0.0, 0.5, CloneProbeAllowance), ProbeOutcome::Loses); // never regroup blind
  // H200, df8bec8: Smith-Waterman's probe 4.1% under its clone, gaining 3x
  // in full; bfs's 1.4% under, losing 2.3x, goes to the identity and a scout.
  EXPECT_EQ(judgeProbe(42.389, 40.647, CloneProbeAllowance), ProbeOutcome::Wins);  // sw
  EXPECT_EQ(judgeProbe(0.430, 0.424, CloneProbeAllowance), ProbeOutcome::Unsure); // bfs
  // Unsure, against the identity layout (H100, bb42110's build).
  EXPECT_TRUE(probeBeatsIdentity(4.144, 4.246));  // matpow: 2.5% over, within the noise
  EXPECT_FALSE(probeBeatsIdentity(0.855, 0.884)); // spmv: 3.4% over
  EXPECT_FALSE(probeBeatsIdentity(0.496, 0.552)); // bfs: 11% over
  EXPECT_TRUE(probeBeatsIdentity(2.509, 2.440));  // walk (nvcc): 3% under its identity
  EXPECT_FALSE(probeBeatsIdentity(0.0, 0.5));
  // Against the original (costs from a profile) the probe may pay for
  // reading D: walk's probe 1.93 ms against its original's 1.88 ms.
  EXPECT_NE(judgeProbe(1.88, 1.93, RedirectionAllowance), ProbeOutcome::Loses);
  EXPECT_EQ(judgeProbe(2.39, 2.90, RedirectionAllowance), ProbeOutcome::Loses); // mum
}

TEST(OnlineEstimate, FullTrialIsJudgedAgainstTheCostClone) {
  // Not faster than the cost clone: slower than the original too.
  EXPECT_EQ(judgeFullTrial(1.0, 1.0, 0.02, CostCloneBound), FullTrialOutcome::Loses);
  EXPECT_EQ(judgeFullTrial(1.0, 1.7, 0.02, CostCloneBound), FullTrialOutcome::Loses);
  // Faster than the clone's time over CostCloneBound, by the margin: faster
  // than the original whatever the clone cost over it.
  EXPECT_EQ(judgeFullTrial(2.136, 0.486, 0.02, CostCloneBound), FullTrialOutcome::Wins); // walk
  EXPECT_EQ(judgeFullTrial(1.5, 0.98 * 1.0 - 1e-9, 0.02, CostCloneBound), FullTrialOutcome::Wins);
  // In between, the original may be as fast: the guard times the identity.
  EXPECT_EQ(judgeFullTrial(1.5, 0.99, 0.02, CostCloneBound), FullTrialOutcome::Unsure);
  EXPECT_EQ(judgeFullTrial(25.27, 17.67, 0.02, CostCloneBound), FullTrialOutcome::Unsure); // sl
  // A trial or a clone that was not timed never wins.
  EXPECT_EQ(judgeFullTrial(0.0, 0.5, 0.02, CostCloneBound), FullTrialOutcome::Loses);
  EXPECT_EQ(judgeFullTrial(1.0, 0.0, 0.02, CostCloneBound), FullTrialOutcome::Loses);
  // Against the original itself (costs from a profile) there is no doubt.
  EXPECT_EQ(judgeFullTrial(25.8, 17.67, 0.02, 1.0), FullTrialOutcome::Wins);
  EXPECT_EQ(judgeFullTrial(1.0, 0.99, 0.02, 1.0), FullTrialOutcome::Unsure);
  EXPECT_EQ(otherLayout(Dealt), Sorted);
  EXPECT_EQ(otherLayout(Sorted), Sorted);
}

TEST(OnlineEstimate, ChunkedLayoutIsAPermutationOfWholeChunks) {
  EXPECT_FALSE(canChunk(100)); // a partial chunk would leave a hole
  EXPECT_FALSE(canChunk(16));
  ASSERT_TRUE(canChunk(64 * 3));
  uint32_t N = 64 * 3, Chunks = N / ChunkThreads;
  std::vector<uint32_t> ChunkPerm(Chunks);
  for (uint32_t C = 0; C < Chunks; ++C)
    ChunkPerm[C] = (C * 7 + 3) % Chunks; // 7 and 24 are coprime: a permutation
  std::vector<uint32_t> Seen(N, 0);
  for (uint32_t P = 0; P < N; ++P) {
    uint32_t T = chunkedThread(P, ChunkPerm.data());
    ASSERT_LT(T, N);
    ++Seen[T];
    // Neighbours stay neighbours within a chunk, in their order.
    if (P % ChunkThreads)
      EXPECT_EQ(T, chunkedThread(P - 1, ChunkPerm.data()) + 1);
    EXPECT_EQ(T / ChunkThreads, ChunkPerm[P / ChunkThreads]);
  }
  EXPECT_TRUE(std::all_of(Seen.begin(), Seen.end(), [](uint32_t C) { return C == 1; }));
}

TEST(OnlineEstimate, ChunksAsFastAsEstimatedAfterALostProbeRetryTheFullRegrouping) {
  // Times and estimates from the H200's verbose lines (146f8d8): the
  // original's cycles, chunks' (original / (1 + chunked gain)); the full
  // regrouping's gain, which those lines do not print, larger than chunks'.
  auto Misjudged = [](double OriginalNs, double Cycles, double ChunkGain, double ChunkedNs,
                      double FullGain) {
    return probeMisjudged(OriginalNs, Cycles, Cycles / (1 + ChunkGain), ChunkedNs,
                          Cycles / (1 + FullGain));
  };
  // ode: chunks 3.04 ms where 7.38 / 1.858 = 3.97 was estimated: retry.
  EXPECT_TRUE(Misjudged(7.382e6, 3.342e7, 0.858, 3.066e6, 3.36));
  // ec, sl, tri and sat: chunks slower than estimated, no retry.
  EXPECT_FALSE(Misjudged(2.864e6, 5.131e6, 0.557, 2.453e6, 2.0));
  EXPECT_FALSE(Misjudged(22.573e6, 1.788e8, 0.922, 18.049e6, 3.494));
  EXPECT_FALSE(Misjudged(6.003e6, 6.027e7, 1.654, 5.260e6, 3.0));
  EXPECT_FALSE(Misjudged(32.699e6, 9.533e7, 0.532, 27.653e6, 1.5));
  // A full regrouping estimated no faster than chunks: nothing to retry.
  EXPECT_FALSE(Misjudged(7.382e6, 3.342e7, 0.858, 3.066e6, 0.5));
  // Nothing timed or estimated: no retry.
  EXPECT_FALSE(probeMisjudged(0, 1.0, 0.5, 1e6, 0.2));
  EXPECT_FALSE(probeMisjudged(1e6, 1.0, 0.5, 0, 0.2));
}

TEST(OnlineEstimate, ChunkedTrialRunsWhereItsEstimateLeavesAChance) {
  // sm on an H200: clone 2.99 ms, chunks estimated 2.31x, greedy-max timed 1.69 ms.
  EXPECT_TRUE(localLayoutHasAChance(2.99e6, 2.31, 1.0, 1.69e6));
  // nw: clone 15.75 ms, chunks estimated 1.80x, greedy-max timed 2.52 ms.
  EXPECT_FALSE(localLayoutHasAChance(15.75e6, 1.80, 1.0, 2.52e6));
  // Exactly LocalChance over the fastest trial still runs; beyond, not.
  EXPECT_TRUE(localLayoutHasAChance(LocalChance * 2e6, 2.0, 2.0, 2e6));
  EXPECT_FALSE(localLayoutHasAChance(LocalChance * 2e6 * 1.01, 2.0, 2.0, 2e6));
  // Nothing timed or estimated: no trial.
  EXPECT_FALSE(localLayoutHasAChance(0, 2.0, 1.0, 1e6));
  EXPECT_FALSE(localLayoutHasAChance(1e6, 2.0, 0, 1e6));
  EXPECT_FALSE(localLayoutHasAChance(1e6, 2.0, 1.0, 0));
}

TEST(OnlineEstimate, InBlockTrialOnlyWhereTheProbeDidNotLose) {
  // bfs on an H100: identity 0.509 ms, in-block estimated 2.20x; its probe
  // lost, and sorting within blocks ran 0.698 ms.
  EXPECT_TRUE(localLayoutHasAChance(0.509e6, 2.20, 1.0, 0.509e6));
  EXPECT_FALSE(inBlockLayoutHasAChance(true, 0.509e6, 2.20, 1.0, 0.509e6));
  // kepler: the probe was unsure and beat its identity; in-block (estimated
  // 1.215x) then won, 0.927 ms against 1.339.
  EXPECT_TRUE(inBlockLayoutHasAChance(false, 1.309e6, 1.215, 1.0, 1.339e6));
  EXPECT_FALSE(inBlockLayoutHasAChance(false, 0, 1.215, 1.0, 1.339e6));
}

TEST(OnlineEstimate, ProbeDealsItsBlocksAsTheFullRegroupingDoes) {
  Machine M{132, 2304, 128}; // sl: 144 probe blocks of 4 warps
  uint32_t N = probeThreads(M);
  ASSERT_EQ(N, 144u * 128);
  std::vector<uint32_t> Seen(N, 0);
  std::vector<float> BlockSum(probeBlocks(M), 0);
  for (uint32_t Q = 0; Q < N; ++Q) {
    uint32_t S = probeSource(Q, M);
    ASSERT_LT(S, N);
    ++Seen[S];
    if (Q % 32 == 0) // sorted position S costs N - S; a warp's first lane is its costliest
      BlockSum[Q / M.ThreadsPerBlock] += float(N - S);
  }
  EXPECT_TRUE(std::all_of(Seen.begin(), Seen.end(), [](uint32_t C) { return C == 1; }));
  // Sorted, the first probe block would take the 4 costliest warps; dealt,
  // no block is a warp's cost above the mean.
  float Mean = std::accumulate(BlockSum.begin(), BlockSum.end(), 0.0f) / BlockSum.size();
  EXPECT_LE(*std::max_element(BlockSum.begin(), BlockSum.end()), Mean + float(N));
  EXPECT_EQ(probeSource(5, Machine{132, 64, 48}), 5u); // blocks of partial warps: sorted
}

TEST(OnlineEstimate, InBlockLayoutWhereBlocksHoldMoreThanAWarp) {
  EXPECT_TRUE(canSortInBlocks(Machine{132, 1u << 24, 64})); // any grid
  EXPECT_TRUE(canSortInBlocks(Machine{132, 20, 16 * 8}));    // 2-D blocks count their threads
  EXPECT_TRUE(canSortInBlocks(Machine{132, 1, 1024}));
  EXPECT_FALSE(canSortInBlocks(Machine{132, 100, 32})); // one warp: nothing to sort
  EXPECT_FALSE(canSortInBlocks(Machine{132, 100, 20}));
}

TEST(OnlineEstimate, GuardsLeaveNoGainInLaunchesOfManyWarps) {
  // One comparison: at most 2 divergent warps; 5% of 40 warps is 2.
  EXPECT_FALSE(guardsLeaveNoGain(1, 5, 256, 0.05)) << "40 warps: 2 of them could be 5%";
  EXPECT_TRUE(guardsLeaveNoGain(1, 6, 256, 0.05)) << "48 warps";
  EXPECT_TRUE(guardsLeaveNoGain(1, 4096, 256, 0.05));
  // Partial warps count whole: 4096 blocks of 48 threads are 8192 warps.
  EXPECT_TRUE(guardsLeaveNoGain(1, 4096, 48, 0.05));
  // Each comparison adds two warps; none still counts one.
  EXPECT_FALSE(guardsLeaveNoGain(3, 15, 256, 0.05)) << "6 of 120 warps";
  EXPECT_TRUE(guardsLeaveNoGain(3, 16, 256, 0.05)) << "6 of 128 warps";
  EXPECT_EQ(guardsLeaveNoGain(0, 6, 256, 0.05), guardsLeaveNoGain(1, 6, 256, 0.05));
  // A minimum gain of 0 asks for every gain, however small.
  EXPECT_FALSE(guardsLeaveNoGain(1, 1u << 20, 1024, 0.0));
}
