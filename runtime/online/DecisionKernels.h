// The online decision as GPU work queued on the user's stream: from the cost
// clone's per-thread costs to the redirection array D, and the guard's timed
// comparison, with nothing copied to the host and nothing waited for. The
// host reads DecisionResult (mapped pinned memory) only after an event says
// the work that wrote it is done.
#pragma once
#include "online/OnlineEstimate.h"

#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>

namespace divopt::rt::online {

// %globaltimer stamps (ns), written by one-thread kernels in stream order.
enum Stamp : unsigned {
  CostStart,
  CostEnd,
  DecisionStart,
  DecisionEnd,
  FirstTrial, // guard trial k (GuardTrial) runs between stamps
              // FirstTrial + 2k and FirstTrial + 2k + 1
  NumStamps = FirstTrial + 2 * GuardTrials,
};

// Written by the GPU into mapped host memory.
struct DecisionResult {
  uint32_t MayGain;                        // the gain bound's verdict (GainBound.h)
  double BestCase;                         // its bestCaseCycles
  double EstimateOriginal, EstimateChosen; // estimateCycles
  double EstimateChunked;                  // the chunked layout's (0: none)
  double EstimateInBlocks;                 // the layout sorted within blocks' (0: none)
  uint32_t Estimated;                      // the estimate's Layout (Identity: no gain)
  uint32_t Chosen;                         // the verdict: the Layout D holds for good
  uint32_t Abandoned;                      // the probe lost (judgeProbe)
  uint32_t Outcome;                        // FullTrialOutcome of the full trial
  uint32_t TrialLayout[GuardTrials];       // the Layout each guard trial ran
  double TrialNs[GuardTrials];             // each guard trial's time
  unsigned long long Stamps[NumStamps];
};

// In device memory: what the kernels that write D read, and the stamps, so
// that the first ones (around the reference launch) need no mapped memory
// yet; the decision and the verdict copy them into DecisionResult.
struct GuardControl {
  uint32_t Current;   // the Layout D holds (or is about to)
  uint32_t Estimated; // the estimate's Layout
  uint32_t Abandoned;
  uint32_t ProbeUnsure; // judgeProbe said Unsure: trial 2 timed the identity
  uint32_t Scout;       // the local layout trial 3 ran before the full one (Identity: none)
  uint32_t Outcome;   // FullTrialOutcome
  uint32_t Provisional; // the fastest layout trials 1-3 (then 4) chose
  uint32_t HasChunks;   // the decision sorted chunks (canChunk)
  uint32_t HasInBlocks; // the decision sorted within blocks (canSortInBlocks)
  double ProvisionalNs; // its fastest trial's time (0: untimed)
  double OriginalNs;    // the original's time as the trials know it
  unsigned long long Stamps[NumStamps];
};

// What the estimate kernel sums, in device memory.
struct LayoutSums {
  enum : unsigned { AsWritten, AsSorted, InChunks, SortedInBlocks, Layouts };
  double WarpMaxSum[Layouts];
  unsigned MaxBlockSumBits[Layouts]; // float bits: costs are never negative
  unsigned MaxWarpBits;
};

enum class Forced : uint32_t { Auto, Sorting, GreedyMax, Chunked, InBlocks };

struct GainBoundSums;

// Device buffers of one kernel and launch shape, reused by every decision:
// the costs' block (carveCostBuffers, from the scratch pool until the gain
// bound sends the shape on to a decision), then the rest.
struct DecisionBuffers {
  uint32_t Threads = 0;
  void *CostBlock = nullptr;   // Cost, Control and BoundSums
  float *Cost = nullptr;       // the cost clone's output, by logical thread
  GuardControl *Control = nullptr;
  GainBoundSums *BoundSums = nullptr;
  float *SortedCost = nullptr;
  uint32_t *Ids = nullptr;     // 0..Threads-1, written once
  uint32_t *Perm = nullptr;    // thread ids by descending cost
  // The probe's blocks' costs and ids (probeThread), then sorted on their own.
  float *ProbeCostIn = nullptr, *ProbeCost = nullptr;
  uint32_t *ProbeIdsIn = nullptr, *ProbePerm = nullptr;
  // Chunks of ChunkThreads threads (canChunk): each one's costliest thread's
  // cost, the same sorted, and the chunks' ids in that order (the first
  // Threads / ChunkThreads of Ids are the chunks' ids).
  float *ChunkCost = nullptr, *ChunkSortedCost = nullptr;
  uint32_t *ChunkPerm = nullptr;
  // canSortInBlocks: thread ids, each block's sorted by descending cost.
  uint32_t *InBlockPerm = nullptr;
  void *SortTemp = nullptr;
  size_t SortTempBytes = 0;
  LayoutSums *Sums = nullptr;
};

// CUB's scratch for sorting Threads costs.
size_t sortTempBytes(uint32_t Threads);

// The bytes of the costs' block of a launch of Threads threads;
// carveCostBuffers lays it out from its Base (DecisionBuffers.cpp).
size_t costBufferBytes(uint32_t Threads);
void carveCostBuffers(DecisionBuffers &B, uint32_t Threads, char *Base);

// The bytes of one allocation that holds the rest of a decision's buffers on
// launches of shape M and one D; carveDecisionBuffers lays them out from
// its Base and returns the D.
size_t decisionBufferBytes(const Machine &M);
uint32_t *carveDecisionBuffers(DecisionBuffers &B, const Machine &M, char *Base);

// Loads the decision's kernels, CUB's sort among them, by asking for their
// attributes and queueing two small sorts on S. Under CUDA's lazy loading a
// kernel's first use waits for the GPU to go idle, so this runs once per
// process before its first decision: on the warm-up thread
// (launch/Warmup.h), else before a first slot's reference launch.
cudaError_t preloadDecisionKernels(cudaStream_t S);

// The same for the stream writes' kernels (StreamWrites.cu).
cudaError_t preloadStreamWrites();

// %globaltimer into B.Control->Stamps[Which].
cudaError_t queueStamp(const DecisionBuffers &B, Stamp Which, cudaStream_t S);
cudaError_t queueIds(const DecisionBuffers &B, cudaStream_t S);

// Sorts the costs, prices the original, sorted, dealt, chunked and
// within-block sorted layouts, picks one
// (Forced, or the best estimate when it gains MinGain, else Identity) and
// writes D accordingly: the chosen permutation or the identity.
cudaError_t queueDecision(const DecisionBuffers &B, const Machine &M, double MinGain, Forced F,
                          uint32_t *D, DecisionResult *R, cudaStream_t S);

// Before guard trial Trial: D in the layout that trial runs, chosen on the
// GPU from the reference launch's (between the Cost stamps: the cost clone,
// or the original, Bound as judgeFullTrial's) and the earlier trials' times
// (OnlineEstimate.h; the identity when the estimate saw no gain or a trial
// lost).
cudaError_t queueTrialLayout(const DecisionBuffers &B, const Machine &M, unsigned Trial,
                             double Margin, double Bound, uint32_t *D, DecisionResult *R,
                             cudaStream_t S);

// After the last trial: D in the regrouping that won (the faster layout
// after a clear win), else the identity, so that every later redirected
// launch runs the original order.
cudaError_t queueVerdict(const DecisionBuffers &B, const Machine &M, double Margin, uint32_t *D,
                         DecisionResult *R, cudaStream_t S);

} // namespace divopt::rt::online
