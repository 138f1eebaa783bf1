#include "online/GainBound.h"
#include "launch/GlobalTimer.h"
#include "launch/LoadKernels.h"

namespace divopt::rt::online {
namespace {

__global__ void costStartKernel(GuardControl *Control, GainBoundSums *Sums) {
  Control->Stamps[CostStart] = globalTimer();
  *Sums = GainBoundSums{};
}

// One block per user block, one thread per user thread, as the estimate
// kernel: warp w of this block is warp w of the user's block. The last
// block to finish turns the sums into the verdict.
__global__ void gainBoundKernel(const float *Cost, Machine M, double MinGain, bool GoOn,
                                GainBoundSums *Sums, GuardControl *Control, DecisionResult *R) {
  __shared__ float WarpMax[32];
  __shared__ float BlockTotal;
  if (threadIdx.x == 0)
    BlockTotal = 0;
  __syncthreads();
  float C = Cost[blockIdx.x * blockDim.x + threadIdx.x];
  // Non-negative floats order as their bits do.
  unsigned Max = __reduce_max_sync(__activemask(), __float_as_uint(C));
  if (threadIdx.x % 32 == 0)
    WarpMax[threadIdx.x / 32] = __uint_as_float(Max);
  atomicAdd(&BlockTotal, C);
  __syncthreads();
  if (threadIdx.x != 0)
    return;
  float Sum = 0, Heaviest = 0;
  for (unsigned W = 0; W < (blockDim.x + 31) / 32; ++W) {
    Sum += WarpMax[W];
    Heaviest = fmaxf(Heaviest, WarpMax[W]);
  }
  atomicAdd(&Sums->WarpMaxSum, double(Sum));
  atomicAdd(&Sums->Total, double(BlockTotal));
  atomicMax(&Sums->MaxBlockSumBits, __float_as_uint(Sum));
  atomicMax(&Sums->MaxWarpBits, __float_as_uint(Heaviest));
  __threadfence();
  if (atomicAdd(&Sums->BlocksDone, 1) != gridDim.x - 1)
    return;
  __threadfence(); // every block's sums are in
  const volatile GainBoundSums *Done = Sums;
  float MaxWarp = __uint_as_float(Done->MaxWarpBits);
  double Original =
      estimateCycles(LayoutCost{Done->WarpMaxSum, __uint_as_float(Done->MaxBlockSumBits)},
                     MaxWarp, M);
  double BestCase = bestCaseCycles(Done->Total, MaxWarp, M);
  R->EstimateOriginal = Original;
  R->BestCase = BestCase;
  R->MayGain = GoOn || regroupingMayGain(Original, BestCase, MinGain);
  R->Stamps[CostStart] = Control->Stamps[CostStart];
  R->Stamps[CostEnd] = Control->Stamps[CostEnd];
}

} // namespace

cudaError_t preloadGainBound() { return loadKernels(&costStartKernel, &gainBoundKernel); }

cudaError_t queueCostStart(const DecisionBuffers &B, cudaStream_t S) {
  costStartKernel<<<1, 1, 0, S>>>(B.Control, B.BoundSums);
  return cudaGetLastError();
}

cudaError_t queueGainBound(const DecisionBuffers &B, const Machine &M, double MinGain, Forced F,
                           DecisionResult *R, cudaStream_t S) {
  gainBoundKernel<<<M.Blocks, M.ThreadsPerBlock, 0, S>>>(B.Cost, M, MinGain, F != Forced::Auto,
                                                         B.BoundSums, B.Control, R);
  return cudaGetLastError();
}

} // namespace divopt::rt::online
