// The online decision's first step, queued right behind the cost clone: from
// the costs alone, the launch's estimate as written and the best any layout
// could reach (bestCaseCycles, OnlineEstimate.h). Where no layout can gain
// MinGain, that is the verdict: no sort, no trial, no buffers beyond the
// costs. Most of a real program's kernels are so, elementwise work behind a
// bounds check (benchmarks/online/many_kernels.cu), and for them the whole
// decision costs one cost-clone launch and this kernel, where the sorts,
// estimates and trials cost 0.2 ms of GPU time and 0.5 ms of host time.
#pragma once
#include "online/DecisionKernels.h"

namespace divopt::rt::online {

// The bound's sums, in device memory beside the costs (carveCostBuffers).
struct GainBoundSums {
  double WarpMaxSum;     // as written: sum over warps of the warp's costliest lane
  double Total;          // every thread's cost
  unsigned MaxBlockSumBits; // as written, float bits (costs are never negative)
  unsigned MaxWarpBits;     // the costliest thread
  unsigned BlocksDone;      // the last block to finish writes the verdict
};

// The cost clone's stamp (CostStart) with the bound's sums zeroed: one
// kernel before the reference launch.
cudaError_t queueCostStart(const DecisionBuffers &B, cudaStream_t S);

// After the reference launch (and its CostEnd stamp): R->MayGain, with
// R->EstimateOriginal and R->BestCase, and the reference's stamps in
// R->Stamps. A forced layout (DIVOPT_ALGORITHM) always goes on.
cudaError_t queueGainBound(const DecisionBuffers &B, const Machine &M, double MinGain, Forced F,
                           DecisionResult *R, cudaStream_t S);

// Loads the bound's kernels (prepareProcess).
cudaError_t preloadGainBound();

} // namespace divopt::rt::online
