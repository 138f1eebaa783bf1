#include "LoopImbalance.h"
#include "imbalance/EmpiricalDistribution.h"
#include "imbalance/ImbalanceModel.h"

#include <algorithm>
#include <map>

namespace divopt {
namespace {

constexpr unsigned WarpSize = 32;

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

} // namespace

std::optional<LoopImbalance> loopImbalance(const LaunchProfile &P) {
  uint64_t N = P.Header.threads();
  std::optional<LoopImbalance> Best;
  uint64_t BestExecutions = 0;
  for (const BlockNote &B : P.Kernel.Blocks) {
    if (!isLoopBlock(B))
      continue;
    const uint32_t *Counts = &P.Counts[B.Id * N];
    auto [Lo, Hi] = std::minmax_element(Counts, Counts + N);
    uint64_t Executions = 0;
    for (uint64_t T = 0; T < N; ++T)
      Executions += Counts[T];
    if (*Lo != *Hi && Executions > BestExecutions) {
      BestExecutions = Executions;
      Best = LoopImbalance{};
      Best->Block = B.Id;
    }
  }
  if (!Best)
    return Best;
  std::vector<uint32_t> Trips(&P.Counts[Best->Block * N], &P.Counts[Best->Block * N] + N);
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
