// GPU formulations of Sorting and Greedy-Max for online mode: one radix sort
// of the per-thread costs gives both layouts; an estimate kernel launched
// with the user's block size sees exactly the user's warps and blocks.
#include "online/DecisionKernels.h"
#include "launch/LoadKernels.h"

// CUB asks for unrolls the optimizer cannot always do; that is CUB's
// business, not divopt's.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpass-failed"
#include <cub/block/block_radix_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#pragma clang diagnostic pop

namespace divopt::rt::online {
namespace {

// The costs' top 16 bits (sign, exponent, 7 bits of mantissa): two radix
// passes instead of four, and costs within 1% of each other keep their
// thread order, which keeps neighbouring threads (and their memory) together.
constexpr int SortBeginBit = 16, SortEndBit = 32;
constexpr unsigned ApplyThreads = 256;

// One thread per chunk (canChunk): the cost of its costliest thread, which
// the whole chunk waits for in any warp it joins.
__global__ void chunkCostKernel(const float *Cost, uint32_t Chunks, float *ChunkCost) {
  static_assert(ChunkThreads == 8, "two float4 loads a chunk");
  uint32_t C = blockIdx.x * blockDim.x + threadIdx.x;
  if (C >= Chunks)
    return;
  const auto *V = reinterpret_cast<const float4 *>(Cost + size_t(C) * ChunkThreads);
  float4 A = V[0], B = V[1];
  ChunkCost[C] = fmaxf(fmaxf(fmaxf(A.x, A.y), fmaxf(A.z, A.w)),
                       fmaxf(fmaxf(B.x, B.y), fmaxf(B.z, B.w)));
}

// One CUDA block per user block: its costs, padded to a power of two with
// -1 (below every cost), sorted descending in shared memory, equal keys in
// thread order. Four keys a thread (two in blocks of 64): per key, the
// ranking's scans and barriers cost a quarter of what one key a thread does
// (bfs's 16384 blocks of 256 took 144 us so, under ncu).
template <unsigned Padded> constexpr unsigned SortItems = Padded >= 128 ? 4 : 2;
template <unsigned Padded>
__global__ void __launch_bounds__(Padded / SortItems<Padded>)
    sortInBlocksKernel(const float *Cost, uint32_t ThreadsPerBlock, uint32_t *InBlockPerm) {
  constexpr unsigned Items = SortItems<Padded>;
  using BlockSort = cub::BlockRadixSort<float, Padded / Items, Items, uint32_t>;
  __shared__ typename BlockSort::TempStorage Temp;
  size_t Base = size_t(blockIdx.x) * ThreadsPerBlock;
  float Key[Items];
  uint32_t Thread[Items];
  for (unsigned I = 0; I < Items; ++I) { // blocked: the sort's order for equal keys
    uint32_t InBlock = threadIdx.x * Items + I;
    Key[I] = InBlock < ThreadsPerBlock ? Cost[Base + InBlock] : -1.0f;
    Thread[I] = uint32_t(Base + InBlock);
  }
  BlockSort(Temp).SortDescending(Key, Thread, SortBeginBit, SortEndBit);
  for (unsigned I = 0; I < Items; ++I)
    if (uint32_t Rank = threadIdx.x * Items + I; Rank < ThreadsPerBlock)
      InBlockPerm[Base + Rank] = Thread[I];
}

__global__ void gatherProbeKernel(const float *Cost, Machine M, float *ProbeCost,
                                  uint32_t *ProbeIds) {
  uint32_t Q = blockIdx.x * blockDim.x + threadIdx.x;
  if (Q >= probeThreads(M))
    return;
  uint32_t T = probeThread(Q, M);
  ProbeCost[Q] = Cost[T];
  ProbeIds[Q] = T;
}

// One block per user block, one thread per user thread: warp w of this block
// is warp w of the user's block, whatever the block size. In the chunked
// layout position P runs a thread of the P / ChunkThreads-th costliest chunk,
// priced at that chunk's cost (ChunkSortedCost: null where there are no chunks);
// sorted within blocks, it runs thread InBlockPerm[P] (null: not sorted so).
__global__ void estimateKernel(const float *Cost, const float *SortedCost,
                               const float *ChunkSortedCost, const uint32_t *InBlockPerm,
                               LayoutSums *Sums) {
  __shared__ float WarpMax[LayoutSums::Layouts][32];
  uint32_t P = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned Lane = threadIdx.x % 32, Warp = threadIdx.x / 32;
  unsigned Active = __activemask();
  // Non-negative floats order as their bits do.
  unsigned AsWritten = __reduce_max_sync(Active, __float_as_uint(Cost[P]));
  unsigned AsSorted = __reduce_max_sync(Active, __float_as_uint(SortedCost[P]));
  unsigned InChunks =
      ChunkSortedCost
          ? __reduce_max_sync(Active, __float_as_uint(ChunkSortedCost[P / ChunkThreads]))
          : 0;
  unsigned SortedInBlocks =
      InBlockPerm ? __reduce_max_sync(Active, __float_as_uint(Cost[InBlockPerm[P]])) : 0;
  if (Lane == 0) {
    WarpMax[LayoutSums::AsWritten][Warp] = __uint_as_float(AsWritten);
    WarpMax[LayoutSums::AsSorted][Warp] = __uint_as_float(AsSorted);
    WarpMax[LayoutSums::InChunks][Warp] = __uint_as_float(InChunks);
    WarpMax[LayoutSums::SortedInBlocks][Warp] = __uint_as_float(SortedInBlocks);
  }
  __syncthreads();
  if (threadIdx.x < LayoutSums::Layouts) {
    unsigned Warps = (blockDim.x + 31) / 32;
    float Sum = 0, Max = 0;
    for (unsigned W = 0; W < Warps; ++W) {
      Sum += WarpMax[threadIdx.x][W];
      Max = fmaxf(Max, WarpMax[threadIdx.x][W]);
    }
    atomicAdd(&Sums->WarpMaxSum[threadIdx.x], double(Sum));
    atomicMax(&Sums->MaxBlockSumBits[threadIdx.x], __float_as_uint(Sum));
    if (threadIdx.x == LayoutSums::AsSorted) // the costliest thread leads some warp in any layout
      atomicMax(&Sums->MaxWarpBits, __float_as_uint(Max));
  }
}

__device__ LayoutCost layoutCost(const LayoutSums *Sums, unsigned L) {
  return {Sums->WarpMaxSum[L], __uint_as_float(Sums->MaxBlockSumBits[L])};
}

__global__ void finalizeKernel(const LayoutSums *Sums, bool HasChunks, bool HasInBlocks, Machine M,
                               double MinGain, Forced F, GuardControl *Control,
                               DecisionResult *R) {
  float MaxWarp = __uint_as_float(Sums->MaxWarpBits);
  LayoutCost CSorted = layoutCost(Sums, LayoutSums::AsSorted);
  uint32_t Full = fullLayout(M);
  if (F == Forced::Sorting)
    Full = Sorted;
  double TOriginal = estimateCycles(layoutCost(Sums, LayoutSums::AsWritten), MaxWarp, M);
  double TFull =
      estimateCycles(Full == Dealt ? dealtCost(CSorted, MaxWarp, M) : CSorted, MaxWarp, M);
  double TChunked =
      HasChunks ? estimateCycles(layoutCost(Sums, LayoutSums::InChunks), MaxWarp, M) : 0;
  double TInBlocks =
      HasInBlocks ? estimateCycles(layoutCost(Sums, LayoutSums::SortedInBlocks), MaxWarp, M)
                  : 0;
  uint32_t Chosen = Full;
  double TChosen = TFull;
  if (F == Forced::Chunked && HasChunks) {
    Chosen = Chunked;
    TChosen = TChunked;
  }
  if (F == Forced::InBlocks && HasInBlocks) {
    Chosen = InBlocks;
    TChosen = TInBlocks;
  }
  if (F == Forced::Auto && !(TChosen > 0 && TOriginal >= TChosen * (1.0 + MinGain)))
    Chosen = Identity;
  Control->Current = Control->Estimated = Chosen;
  Control->HasChunks = HasChunks && TChunked > 0;
  Control->HasInBlocks = HasInBlocks && TInBlocks > 0;
  Control->OriginalNs = 0;
  Control->Abandoned = 0;
  Control->ProbeUnsure = 0;
  Control->Scout = Identity;
  Control->Outcome = uint32_t(FullTrialOutcome::Loses);
  R->EstimateOriginal = TOriginal;
  R->EstimateChosen = Chosen == Identity ? TOriginal : TChosen;
  R->EstimateChunked = TChunked;
  R->EstimateInBlocks = TInBlocks;
  R->Estimated = R->Chosen = Chosen;
  R->Abandoned = 0;
  R->Outcome = uint32_t(FullTrialOutcome::Loses);
  for (unsigned T = 0; T < GuardTrials; ++T) {
    R->TrialNs[T] = 0;
    R->TrialLayout[T] = Identity;
  }
}

__global__ void applyKernel(const uint32_t *Perm, const uint32_t *ProbePerm,
                            const uint32_t *ChunkPerm, const uint32_t *InBlockPerm, Machine M,
                            uint32_t Threads, const GuardControl *Control, uint32_t *D) {
  uint32_t P = blockIdx.x * blockDim.x + threadIdx.x;
  if (P >= Threads)
    return;
  uint32_t L = Control->Current, Q = 0;
  D[P] = L == Sorted                           ? Perm[P]
         : L == Dealt                          ? Perm[dealtSource(P, M)]
         : L == Chunked                        ? chunkedThread(P, ChunkPerm)
         : L == InBlocks                       ? InBlockPerm[P]
         : L == Probe && probeIndex(P, M, Q) ? ProbePerm[probeSource(Q, M)]
                                               : P;
}

__device__ double trialNs(const GuardControl *C, unsigned Trial) {
  return double(C->Stamps[FirstTrial + 2 * Trial + 1] - C->Stamps[FirstTrial + 2 * Trial]);
}

__device__ double costCloneNs(const GuardControl *C) {
  return double(C->Stamps[CostEnd] - C->Stamps[CostStart]);
}

// The fastest of the first three trials that ran layout L (0: none did).
__device__ double fastestTrial(const DecisionResult *R, uint32_t L) {
  double Fastest = 0;
  for (unsigned T = ProbeTrial; T < ChunkTrial; ++T)
    if (R->TrialLayout[T] == L && R->TrialNs[T] > 0 && (Fastest == 0 || R->TrialNs[T] < Fastest))
      Fastest = R->TrialNs[T];
  return Fastest;
}

// The original's time as the trials know it: the fastest of the cost clone
// (its work plus one add a block; nvcc's copy of matpow's ran 2x its
// original), the probe (fifteen sixteenths of it as written) and the
// identity trials.
__device__ double originalNs(const GuardControl *Control, const DecisionResult *R) {
  double Original = costCloneNs(Control);
  for (double Ns : {R->TrialNs[ProbeTrial], fastestTrial(R, Identity)})
    if (Ns > 0)
      Original = fmin(Original, Ns);
  return Original;
}

// What the probe, the full and the confirming trial chose (OnlineEstimate.h),
// with the confirming trial's time recorded. Its time, for the chunked
// trial, is that layout's fastest trial: the identity's where it is the
// original.
__device__ uint32_t firstVerdict(GuardControl *Control, DecisionResult *R, double Margin) {
  double Full = R->TrialNs[FullTrial], Confirm = trialNs(Control, ConfirmTrial);
  R->TrialNs[ConfirmTrial] = Confirm;
  auto Outcome = FullTrialOutcome(Control->Outcome);
  if (Control->Abandoned)
    return Identity;
  if (Control->ProbeUnsure) // Full timed the identity, Confirm the full regrouping
    return regroupedWins(Full, Confirm, Margin) ? Control->Estimated : uint32_t(Identity);
  if (Outcome == FullTrialOutcome::Loses)
    return Identity;
  if (Outcome == FullTrialOutcome::Wins)
    return Confirm < Full ? R->TrialLayout[ConfirmTrial] : Control->Estimated;
  return regroupedWins(Confirm, Full, Margin) ? Control->Estimated : uint32_t(Identity);
}

// Trials 4 and 5 time a layout that keeps memory local (OnlineEstimate.h):
// L where it has a chance against the provisional verdict, else that.
__device__ void tryLocalLayout(GuardControl *Control, const DecisionResult *R, uint32_t L,
                               bool Has, double LayoutCycles) {
  Control->Current = Control->Provisional;
  if (!Has)
    return;
  bool Chance = L == InBlocks
                    ? inBlockLayoutHasAChance(Control->Abandoned, Control->OriginalNs,
                                              R->EstimateOriginal, LayoutCycles,
                                              Control->ProvisionalNs)
                    : localLayoutHasAChance(Control->OriginalNs, R->EstimateOriginal,
                                            LayoutCycles, Control->ProvisionalNs);
  if (Chance)
    Control->Current = L;
}

// After trial 4 or 5: its time recorded, and its layout the provisional
// verdict where it ran and beat that by Margin.
__device__ void keepIfFaster(GuardControl *Control, DecisionResult *R, unsigned Trial, uint32_t L,
                             double Margin) {
  double Ns = R->TrialNs[Trial] = trialNs(Control, Trial);
  if (R->TrialLayout[Trial] == L && regroupedWins(Control->ProvisionalNs, Ns, Margin)) {
    Control->Provisional = L;
    Control->ProvisionalNs = Ns;
  }
}

__global__ void publishStampsKernel(const GuardControl *Control, DecisionResult *R) {
  for (unsigned I = 0; I < NumStamps; ++I)
    R->Stamps[I] = Control->Stamps[I];
}

// Each trial's layout from what the cost clone and the trials before it
// measured (OnlineEstimate.h).
__global__ void trialLayoutKernel(unsigned Trial, double Margin, double Bound,
                                  GuardControl *Control, DecisionResult *R) {
  if (Control->Estimated == Identity) {
    R->TrialLayout[Trial] = Identity;
    return;
  }
  if (Trial == ProbeTrial) {
    Control->Current = Probe;
  } else if (Trial == FullTrial) {
    R->TrialNs[ProbeTrial] = trialNs(Control, ProbeTrial);
    // Bound 1: the reference is the original, which reads no D.
    double Allowance = Bound > 1.0 ? CloneProbeAllowance : RedirectionAllowance;
    switch (judgeProbe(costCloneNs(Control), R->TrialNs[ProbeTrial], Allowance)) {
    case ProbeOutcome::Loses:
      Control->Abandoned = R->Abandoned = 1;
      Control->Current = Identity;
      break;
    case ProbeOutcome::Wins:
      Control->Current = Control->Estimated;
      break;
    case ProbeOutcome::Unsure: // time the identity layout, which reads D as the probe does
      Control->ProbeUnsure = 1;
      Control->Current = Identity;
      break;
    }
  } else if (Trial == ChunkTrial) {
    if (Control->Scout != Identity) {
      // After a scout: the full regrouping where the scout beat the
      // identity, else chunks where sorting within blocks scouted and they
      // have a chance, else the identity.
      keepIfFaster(Control, R, ConfirmTrial, Control->Scout, Margin);
      if (Control->Provisional != Identity)
        Control->Current = Control->Estimated;
      else if (Control->Scout == InBlocks)
        tryLocalLayout(Control, R, Chunked, Control->HasChunks, R->EstimateChunked);
      else
        Control->Current = Identity;
    } else {
      // The chunked layout where it has a chance, else what the first trials chose.
      uint32_t Chosen = Control->Provisional = firstVerdict(Control, R, Margin);
      Control->ProvisionalNs = fastestTrial(R, Chosen);
      Control->OriginalNs = originalNs(Control, R);
      tryLocalLayout(Control, R, Chunked, Control->HasChunks, R->EstimateChunked);
    }
  } else if (Trial == InBlockTrial) {
    if (Control->Scout != Identity) {
      // The fourth trial's layout kept where it beat the scout's verdict;
      // then chunks, where sorting within blocks scouted and the full
      // regrouping followed.
      keepIfFaster(Control, R, ChunkTrial, R->TrialLayout[ChunkTrial], Margin);
      bool FullRan = R->TrialLayout[ChunkTrial] == Control->Estimated;
      Control->Current = Control->Provisional;
      if (FullRan && Control->Scout == InBlocks)
        tryLocalLayout(Control, R, Chunked, Control->HasChunks, R->EstimateChunked);
    } else {
      // The chunked layout, where it beat trials 1-3, is the one to beat:
      // by sorting within blocks, or, where a lost probe misjudged the
      // launch, by the full regrouping.
      keepIfFaster(Control, R, ChunkTrial, Chunked, Margin);
      bool Full = Control->Estimated == Sorted || Control->Estimated == Dealt;
      if (Control->Abandoned && Full && Control->Provisional == Chunked &&
          probeMisjudged(Control->OriginalNs, R->EstimateOriginal, R->EstimateChunked,
                         Control->ProvisionalNs, R->EstimateChosen))
        Control->Current = Control->Estimated;
      else
        tryLocalLayout(Control, R, InBlocks, Control->HasInBlocks, R->EstimateInBlocks);
    }
  } else if (Control->Abandoned) { // the confirming trial from here on
    R->TrialNs[FullTrial] = trialNs(Control, FullTrial); // the identity layout: the reference
  } else if (Control->ProbeUnsure) {
    R->TrialNs[FullTrial] = trialNs(Control, FullTrial); // the identity layout
    if (!probeBeatsIdentity(R->TrialNs[FullTrial], R->TrialNs[ProbeTrial])) {
      Control->Abandoned = R->Abandoned = 1;
      Control->Current = Identity;
    } else {
      // A layout that keeps memory local scouts first where one has a
      // chance (OnlineEstimate.h, trial 3), else the full regrouping runs.
      Control->Provisional = Identity;
      Control->ProvisionalNs = R->TrialNs[FullTrial];
      Control->OriginalNs = originalNs(Control, R);
      auto Chance = [&](double LayoutCycles) {
        return localLayoutHasAChance(Control->OriginalNs, R->EstimateOriginal, LayoutCycles,
                                     Control->ProvisionalNs);
      };
      Control->Scout = Control->HasInBlocks && Chance(R->EstimateInBlocks) ? uint32_t(InBlocks)
                       : Control->HasChunks && Chance(R->EstimateChunked) ? uint32_t(Chunked)
                                                                          : uint32_t(Identity);
      Control->Current = Control->Scout != Identity ? Control->Scout : Control->Estimated;
    }
  } else {
    R->TrialNs[FullTrial] = trialNs(Control, FullTrial);
    auto Outcome = judgeFullTrial(costCloneNs(Control), R->TrialNs[FullTrial], Margin, Bound);
    Control->Outcome = R->Outcome = uint32_t(Outcome);
    Control->Current = Outcome == FullTrialOutcome::Wins
                           ? uint32_t(otherLayout(Layout(Control->Estimated)))
                           : uint32_t(Identity);
  }
  R->TrialLayout[Trial] = Control->Current;
}

__global__ void verdictKernel(double Margin, GuardControl *Control, DecisionResult *R) {
  uint32_t Chosen = Identity;
  if (Control->Estimated != Identity) {
    keepIfFaster(Control, R, InBlockTrial, R->TrialLayout[InBlockTrial], Margin);
    Chosen = Control->Provisional;
  }
  Control->Current = R->Chosen = Chosen;
}

unsigned gridFor(uint32_t Threads) { return (Threads + ApplyThreads - 1) / ApplyThreads; }

template <unsigned Padded>
void queueSortInBlocksOf(const DecisionBuffers &B, const Machine &M, cudaStream_t S) {
  sortInBlocksKernel<Padded><<<M.Blocks, Padded / SortItems<Padded>, 0, S>>>(
      B.Cost, M.ThreadsPerBlock, B.InBlockPerm);
}

void queueSortInBlocks(const DecisionBuffers &B, const Machine &M, cudaStream_t S) {
  uint32_t N = M.ThreadsPerBlock;
  if (N <= 64)
    queueSortInBlocksOf<64>(B, M, S);
  else if (N <= 128)
    queueSortInBlocksOf<128>(B, M, S);
  else if (N <= 256)
    queueSortInBlocksOf<256>(B, M, S);
  else if (N <= 512)
    queueSortInBlocksOf<512>(B, M, S);
  else
    queueSortInBlocksOf<1024>(B, M, S);
}

// D in the layout B.Control->Current names.
void applyLayout(const DecisionBuffers &B, const Machine &M, uint32_t *D, cudaStream_t S) {
  applyKernel<<<gridFor(B.Threads), ApplyThreads, 0, S>>>(B.Perm, B.ProbePerm, B.ChunkPerm,
                                                          B.InBlockPerm, M, B.Threads,
                                                          B.Control, D);
}

} // namespace

cudaError_t preloadDecisionKernels(cudaStream_t S) {
  if (cudaError_t E =
          loadKernels(&chunkCostKernel, &gatherProbeKernel, &estimateKernel, &finalizeKernel,
                      &applyKernel, &trialLayoutKernel, &verdictKernel, &publishStampsKernel,
                      &sortInBlocksKernel<64>, &sortInBlocksKernel<128>,
                      &sortInBlocksKernel<256>, &sortInBlocksKernel<512>,
                      &sortInBlocksKernel<1024>);
      E != cudaSuccess)
    return E;
  // CUB's sort kernels have no names to preload by: one sort of each kind
  // CUB dispatches to (a single tile; the onesweep passes) loads the ones
  // every decision's sorts launch, on scratch kept for the process (freeing
  // it would wait for the GPU).
  constexpr uint32_t Large = 1 << 16;
  size_t TempBytes = sortTempBytes(Large);
  size_t Words = size_t(Large) * 4;
  char *Scratch = nullptr;
  if (cudaError_t E = cudaMalloc(reinterpret_cast<void **>(&Scratch), 4 * Words + TempBytes);
      E != cudaSuccess)
    return E;
  cudaMemsetAsync(Scratch, 0, 4 * Words, S);
  auto *KeysIn = reinterpret_cast<float *>(Scratch);
  auto *KeysOut = reinterpret_cast<float *>(Scratch + Words);
  auto *IdsIn = reinterpret_cast<uint32_t *>(Scratch + 2 * Words);
  auto *IdsOut = reinterpret_cast<uint32_t *>(Scratch + 3 * Words);
  for (uint32_t N : {1u, Large}) {
    size_t Bytes = TempBytes;
    if (cudaError_t E = cub::DeviceRadixSort::SortPairsDescending(
            Scratch + 4 * Words, Bytes, KeysIn, KeysOut, IdsIn, IdsOut, N, SortBeginBit,
            SortEndBit, S);
        E != cudaSuccess)
      return E;
  }
  return cudaSuccess;
}

size_t sortTempBytes(uint32_t Threads) {
  size_t Bytes = 0;
  cub::DeviceRadixSort::SortPairsDescending(nullptr, Bytes, static_cast<const float *>(nullptr),
                                            static_cast<float *>(nullptr),
                                            static_cast<const uint32_t *>(nullptr),
                                            static_cast<uint32_t *>(nullptr), Threads,
                                            SortBeginBit, SortEndBit);
  return Bytes;
}

cudaError_t queueDecision(const DecisionBuffers &B, const Machine &M, double MinGain, Forced F,
                          uint32_t *D, DecisionResult *R, cudaStream_t S) {
  queueStamp(B, DecisionStart, S);
  cudaMemsetAsync(B.Sums, 0, sizeof(LayoutSums), S);
  size_t TempBytes = B.SortTempBytes;
  if (cudaError_t E = cub::DeviceRadixSort::SortPairsDescending(
          B.SortTemp, TempBytes, B.Cost, B.SortedCost, B.Ids, B.Perm, B.Threads, SortBeginBit,
          SortEndBit, S);
      E != cudaSuccess)
    return E;
  // The probe's blocks sorted on their own, for the guard's second trial.
  gatherProbeKernel<<<gridFor(probeThreads(M)), ApplyThreads, 0, S>>>(B.Cost, M, B.ProbeCostIn,
                                                                      B.ProbeIdsIn);
  TempBytes = B.SortTempBytes;
  if (cudaError_t E = cub::DeviceRadixSort::SortPairsDescending(
          B.SortTemp, TempBytes, B.ProbeCostIn, B.ProbeCost, B.ProbeIdsIn, B.ProbePerm,
          probeThreads(M),
          SortBeginBit, SortEndBit, S);
      E != cudaSuccess)
    return E;
  // The chunks sorted by their costliest thread's cost.
  bool HasChunks = B.ChunkPerm != nullptr;
  if (HasChunks) {
    uint32_t Chunks = B.Threads / ChunkThreads;
    chunkCostKernel<<<gridFor(Chunks), ApplyThreads, 0, S>>>(B.Cost, Chunks, B.ChunkCost);
    TempBytes = B.SortTempBytes;
    if (cudaError_t E = cub::DeviceRadixSort::SortPairsDescending(
            B.SortTemp, TempBytes, B.ChunkCost, B.ChunkSortedCost, B.Ids, B.ChunkPerm, Chunks,
            SortBeginBit, SortEndBit, S);
        E != cudaSuccess)
      return E;
  }
  bool HasInBlocks = B.InBlockPerm != nullptr;
  if (HasInBlocks)
    queueSortInBlocks(B, M, S);
  estimateKernel<<<M.Blocks, M.ThreadsPerBlock, 0, S>>>(B.Cost, B.SortedCost,
                                                        B.ChunkSortedCost, B.InBlockPerm,
                                                        B.Sums);
  finalizeKernel<<<1, 1, 0, S>>>(B.Sums, HasChunks, HasInBlocks, M, MinGain, F, B.Control, R);
  applyLayout(B, M, D, S);
  queueStamp(B, DecisionEnd, S);
  publishStampsKernel<<<1, 1, 0, S>>>(B.Control, R);
  return cudaGetLastError();
}

cudaError_t queueTrialLayout(const DecisionBuffers &B, const Machine &M, unsigned Trial,
                             double Margin, double Bound, uint32_t *D, DecisionResult *R,
                             cudaStream_t S) {
  trialLayoutKernel<<<1, 1, 0, S>>>(Trial, Margin, Bound, B.Control, R);
  applyLayout(B, M, D, S);
  return cudaGetLastError();
}

cudaError_t queueVerdict(const DecisionBuffers &B, const Machine &M, double Margin, uint32_t *D,
                         DecisionResult *R, cudaStream_t S) {
  verdictKernel<<<1, 1, 0, S>>>(Margin, B.Control, R);
  applyLayout(B, M, D, S);
  return cudaGetLastError();
}

} // namespace divopt::rt::online
