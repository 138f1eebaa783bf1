#include "LoopImbalance.h"
#include "imbalance/EmpiricalDistribution.h"
#include "imbalance/ImbalanceModel.h"
#include "profile/DivergenceStats.h"

#include <algorithm>
#include <map>

namespace divopt {
namespace {

// A loop block: one with an edge back to itself or an earlier block (blocks
// are numbered in layout order, so a back edge points backwards).
bool isLoopBlock(const BlockNote &B) {
  return std::any_of(B.Successors.begin(), B.Successors.end(),
                     [&](unsigned S) { return S <= B.Id; });
}

// n max / sum of one group; a group that did no work lost nothing.
double groupLoss(const uint32_t *Trips, size_t N) {
  uint64_t Sum = 0;
  uint32_t Max = 0;
  for (size_t I = 0; I < N; ++I) {
    Sum += Trips[I];
    Max = std::max(Max, Trips[I]);
  }
  return Sum ? double(N) * Max / double(Sum) : 1.0;
}

// Warps as the hardware forms them: 32 consecutive threads of one block.
double meanWarpLoss(const std::vector<uint32_t> &Trips, uint64_t PerBlock) {
  double Total = 0;
  uint64_t Warps = 0;
  for (uint64_t Block = 0; Block < Trips.size(); Block += PerBlock)
    for (uint64_t W = Block; W < Block + PerBlock; W += WarpSize, ++Warps)
      Total += groupLoss(&Trips[W], std::min<uint64_t>(WarpSize, Block + PerBlock - W));
  return Warps ? Total / Warps : 1.0;
}

// A block's fewest and most executions by one thread, and its sum over the
// threads: over the classes, weighted by their threads, where the record
// holds no dense counts.
struct BlockTotals {
  uint32_t Lo = UINT32_MAX, Hi = 0;
  uint64_t Executions = 0;
  void add(uint32_t Count, uint64_t Threads) {
    Lo = std::min(Lo, Count);
    Hi = std::max(Hi, Count);
    Executions += Count * Threads;
  }
};

BlockTotals blockTotals(const LaunchProfile &P, unsigned Bb,
                        const std::vector<uint64_t> &ClassThreads) {
  BlockTotals B;
  if (compactOnly(P)) {
    size_t Blocks = P.Kernel.Blocks.size();
    for (uint64_t K = 0; K < ClassThreads.size(); ++K)
      if (ClassThreads[K])
        B.add(P.ClassCounts[K * Blocks + Bb], ClassThreads[K]);
  } else {
    uint64_t N = P.Header.threads();
    for (const uint32_t *C = &P.Counts[Bb * N], *End = C + N; C != End; ++C)
      B.add(*C, 1);
  }
  return B;
}

} // namespace

std::optional<LoopImbalance> loopImbalance(const LaunchProfile &P) {
  uint64_t N = P.Header.threads();
  std::vector<uint64_t> ClassThreads(compactOnly(P) ? P.NumClasses : 0);
  if (compactOnly(P))
    for (uint32_t K : P.ClassOf)
      ++ClassThreads[K];
  std::optional<LoopImbalance> Best;
  uint64_t BestExecutions = 0;
  for (const BlockNote &B : P.Kernel.Blocks) {
    if (!isLoopBlock(B))
      continue;
    BlockTotals T = blockTotals(P, B.Id, ClassThreads);
    if (T.Lo != T.Hi && T.Executions > BestExecutions) {
      BestExecutions = T.Executions;
      Best = LoopImbalance{};
      Best->Block = B.Id;
    }
  }
  if (!Best)
    return Best;
  std::vector<uint32_t> Trips(N);
  for (uint64_t T = 0; T < N; ++T)
    Trips[T] = blockCount(P, Best->Block, T);
  Best->CurrentOrder = meanWarpLoss(Trips, P.Header.threadsPerBlock());
  std::map<uint64_t, uint64_t> Histogram;
  for (uint32_t T : Trips)
    ++Histogram[T];
  std::sort(Trips.begin(), Trips.end());
  Best->SortedOrder = meanWarpLoss(Trips, Trips.size());
  try {
    imbalance::WorkDistribution W = imbalance::empiricalDistribution("trip counts", Histogram);
    Best->Model = imbalance::modelImbalance(W, WarpSize).mean();
  } catch (const std::exception &E) {
    Best->ModelProblem = E.what();
  }
  return Best;
}

} // namespace divopt
