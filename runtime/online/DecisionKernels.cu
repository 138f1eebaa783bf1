// GPU formulations of Sorting and Greedy-Max for online mode: one radix sort
// of the per-thread costs gives both layouts; an estimate kernel launched
// with the user's block size sees exactly the user's warps and blocks.
#include "online/DecisionKernels.h"

// CUB asks for unrolls the optimizer cannot always do; that is CUB's
// business, not divopt's.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpass-failed"
#include <cub/device/device_radix_sort.cuh>
#pragma clang diagnostic pop

namespace divopt::rt::online {
namespace {

// The costs' top 16 bits (sign, exponent, 7 bits of mantissa): two radix
// passes instead of four, and costs within 1% of each other keep their
// thread order, which keeps neighbouring threads (and their memory) together.
constexpr int SortBeginBit = 16, SortEndBit = 32;
constexpr unsigned ApplyThreads = 256;

__device__ unsigned long long globalTimer() {
  unsigned long long T;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(T));
  return T;
}

constexpr unsigned UploadChunk = 256;
struct UploadChunkValues {
  float V[UploadChunk];
};

__global__ void uploadKernel(UploadChunkValues Values, uint32_t Count, float *Dst) {
  if (threadIdx.x < Count)
    Dst[threadIdx.x] = Values.V[threadIdx.x];
}

__global__ void stampKernel(unsigned long long *At) { *At = globalTimer(); }

__global__ void idsKernel(uint32_t *Ids, uint32_t N) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Ids[I] = I;
}

__global__ void beginKernel(LayoutSums *Sums, unsigned long long *At) {
  *Sums = LayoutSums{};
  *At = globalTimer();
}

// One block per user block, one thread per user thread: warp w of this block
// is warp w of the user's block, whatever the block size.
__global__ void estimateKernel(const float *Cost, const float *SortedCost, LayoutSums *Sums) {
  __shared__ float WarpMax[2][32];
  uint32_t P = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned Lane = threadIdx.x % 32, Warp = threadIdx.x / 32;
  unsigned Active = __activemask();
  // Non-negative floats order as their bits do.
  unsigned AsWritten = __reduce_max_sync(Active, __float_as_uint(Cost[P]));
  unsigned AsSorted = __reduce_max_sync(Active, __float_as_uint(SortedCost[P]));
  if (Lane == 0) {
    WarpMax[0][Warp] = __uint_as_float(AsWritten);
    WarpMax[1][Warp] = __uint_as_float(AsSorted);
  }
  __syncthreads();
  if (threadIdx.x < 2) {
    unsigned Warps = (blockDim.x + 31) / 32;
    float Sum = 0, Max = 0;
    for (unsigned W = 0; W < Warps; ++W) {
      Sum += WarpMax[threadIdx.x][W];
      Max = fmaxf(Max, WarpMax[threadIdx.x][W]);
    }
    atomicAdd(&Sums->WarpMaxSum[threadIdx.x], double(Sum));
    atomicMax(&Sums->MaxBlockSumBits[threadIdx.x], __float_as_uint(Sum));
    if (threadIdx.x == 1) // the costliest thread leads some warp in either layout
      atomicMax(&Sums->MaxWarpBits, __float_as_uint(Max));
  }
}

__global__ void finalizeKernel(const LayoutSums *Sums, Machine M, double MinGain, Forced F,
                               uint32_t *ChosenLayout, DecisionResult *R) {
  float MaxWarp = __uint_as_float(Sums->MaxWarpBits);
  LayoutCost COriginal{Sums->WarpMaxSum[0], __uint_as_float(Sums->MaxBlockSumBits[0])};
  LayoutCost CSorted{Sums->WarpMaxSum[1], __uint_as_float(Sums->MaxBlockSumBits[1])};
  LayoutCost CDealt = dealtCost(CSorted, MaxWarp, M);
  double TOriginal = estimateCycles(COriginal, MaxWarp, M);
  double TSorted = estimateCycles(CSorted, MaxWarp, M);
  double TDealt = canDeal(M) ? estimateCycles(CDealt, MaxWarp, M) : TSorted * 2 + 1;
  uint32_t Chosen;
  if (F == Forced::Sorting)
    Chosen = Sorted;
  else if (F == Forced::GreedyMax)
    Chosen = canDeal(M) ? Dealt : Sorted;
  else // dealing scatters more; it must beat sorting by 1% to be chosen
    Chosen = TDealt < TSorted * 0.99 ? Dealt : Sorted;
  double TChosen = Chosen == Dealt ? TDealt : TSorted;
  if (F == Forced::Auto && !(TChosen > 0 && TOriginal >= TChosen * (1.0 + MinGain)))
    Chosen = Identity;
  *ChosenLayout = Chosen;
  R->Original = COriginal;
  R->Sorted = CSorted;
  R->Dealt = CDealt;
  R->MaxWarp = MaxWarp;
  R->EstimateOriginal = TOriginal;
  R->EstimateChosen = Chosen == Identity ? TOriginal : TChosen;
  R->Chosen = Chosen;
  R->Kept = Chosen != Identity;
  R->OriginalNs = R->RegroupedNs = 0;
}

__global__ void applyKernel(const uint32_t *Perm, Machine M, uint32_t Threads,
                            const uint32_t *ChosenLayout, uint32_t *D) {
  uint32_t P = blockIdx.x * blockDim.x + threadIdx.x;
  if (P >= Threads)
    return;
  uint32_t L = *ChosenLayout;
  D[P] = L == Identity ? P : L == Sorted ? Perm[P] : Perm[dealtSource(P, M)];
}

__global__ void verdictKernel(double Margin, uint32_t *ChosenLayout, DecisionResult *R) {
  double Original = 0, Regrouped = 0;
  for (unsigned K = 0; K < GuardTrials; ++K) {
    double Ns = double(R->Stamps[FirstTrial + 2 * K + 1] - R->Stamps[FirstTrial + 2 * K]);
    double &Best = K % 2 == 0 ? Original : Regrouped;
    Best = Best == 0 || Ns < Best ? Ns : Best;
  }
  R->OriginalNs = Original;
  R->RegroupedNs = Regrouped;
  bool Keep = *ChosenLayout != Identity && regroupedWins(Original, Regrouped, Margin);
  R->Kept = Keep;
  if (!Keep)
    *ChosenLayout = Identity;
}

// After a verdict against the regrouping: D back to the identity.
__global__ void identityIfRejectedKernel(uint32_t Threads, const uint32_t *ChosenLayout,
                                         uint32_t *D) {
  uint32_t P = blockIdx.x * blockDim.x + threadIdx.x;
  if (P < Threads && *ChosenLayout == Identity)
    D[P] = P;
}

unsigned gridFor(uint32_t Threads) { return (Threads + ApplyThreads - 1) / ApplyThreads; }

} // namespace

size_t sortTempBytes(uint32_t Threads) {
  size_t Bytes = 0;
  cub::DeviceRadixSort::SortPairsDescending(nullptr, Bytes, static_cast<const float *>(nullptr),
                                            static_cast<float *>(nullptr),
                                            static_cast<const uint32_t *>(nullptr),
                                            static_cast<uint32_t *>(nullptr), Threads,
                                            SortBeginBit, SortEndBit);
  return Bytes;
}

cudaError_t queueUpload(const float *Host, uint32_t Count, float *Dst, cudaStream_t S) {
  for (uint32_t First = 0; First < Count; First += UploadChunk) {
    UploadChunkValues Values{};
    uint32_t N = Count - First < UploadChunk ? Count - First : UploadChunk;
    for (uint32_t I = 0; I < N; ++I)
      Values.V[I] = Host[First + I];
    uploadKernel<<<1, UploadChunk, 0, S>>>(Values, N, Dst + First);
  }
  return cudaGetLastError();
}

cudaError_t queueStamp(DecisionResult *R, Stamp Which, cudaStream_t S) {
  stampKernel<<<1, 1, 0, S>>>(&R->Stamps[Which]);
  return cudaGetLastError();
}

cudaError_t queueIds(const DecisionBuffers &B, cudaStream_t S) {
  idsKernel<<<gridFor(B.Threads), ApplyThreads, 0, S>>>(B.Ids, B.Threads);
  return cudaGetLastError();
}

cudaError_t queueDecision(const DecisionBuffers &B, const Machine &M, double MinGain, Forced F,
                          uint32_t *D, DecisionResult *R, cudaStream_t S) {
  beginKernel<<<1, 1, 0, S>>>(B.Sums, &R->Stamps[DecisionStart]);
  size_t TempBytes = B.SortTempBytes;
  if (cudaError_t E = cub::DeviceRadixSort::SortPairsDescending(
          B.SortTemp, TempBytes, B.Cost, B.SortedCost, B.Ids, B.Perm, B.Threads, SortBeginBit,
          SortEndBit, S);
      E != cudaSuccess)
    return E;
  estimateKernel<<<M.Blocks, M.ThreadsPerBlock, 0, S>>>(B.Cost, B.SortedCost, B.Sums);
  finalizeKernel<<<1, 1, 0, S>>>(B.Sums, M, MinGain, F, B.ChosenLayout, R);
  applyKernel<<<gridFor(B.Threads), ApplyThreads, 0, S>>>(B.Perm, M, B.Threads, B.ChosenLayout,
                                                          D);
  stampKernel<<<1, 1, 0, S>>>(&R->Stamps[DecisionEnd]);
  return cudaGetLastError();
}

cudaError_t queueVerdict(const DecisionBuffers &B, double Margin, uint32_t *D, DecisionResult *R,
                         cudaStream_t S) {
  verdictKernel<<<1, 1, 0, S>>>(Margin, B.ChosenLayout, R);
  identityIfRejectedKernel<<<gridFor(B.Threads), ApplyThreads, 0, S>>>(B.Threads,
                                                                       B.ChosenLayout, D);
  return cudaGetLastError();
}

} // namespace divopt::rt::online
