// Online mode's state for one kernel and launch shape: no profile, no model,
// everything measured on the GPU in the user's stream order.
//
//   Waiting  a shape of a kernel that has shown EagerShapes others: it runs
//            the original and allocates nothing until its launches could
//            have paid twice for its bound and a decision, at the time per
//            thread and the gain the kernel's bound shapes showed
//            (boundPays, KernelHistory). At its second launch it waits for
//            the kernel's first bound if that is still on the GPU. A grid
//            sized to a frontier or a batch is new at almost every launch,
//            and one that comes back a few times with launches of tens of
//            microseconds cannot win back a cost clone, a bound and buffers
//            (benchmarks/online/varying_shapes.cu)
//   Cold     the next launch runs the cost clone (it does the user's work and
//            writes each thread's latency-weighted cost), or, when
//            DIVOPT_PROFILE_USE holds this shape, the original with the
//            profile's costs uploaded once; either is timed (the guard's
//            reference); behind it, one kernel bounds what any layout could
//            gain (GainBound.h)
//   Bounding until the host sees the bound: where no layout can gain, the
//            verdict is the original and the costs' memory goes back to the
//            pool. Where the shape's launches are too short for a decision
//            to pay yet (decisionPays), they run the original until they
//            could have saved what it costs. Else, or where the bound is not
//            seen yet, the next launch queues the decision: the GPU sorts the
//            costs, estimates each layout and writes D (DecisionKernels.h),
//            and the launch is the first trial
//   Trials   that launch and the next four run the redirected clone between
//            %globaltimer stamps, in layouts the GPU picks from what the
//            reference and the earlier trials measured: the probe (every
//            sixteenth block regrouped), the full regrouping, then the other
//            layout or the identity (OnlineEstimate.h); after the last, the
//            GPU writes the verdict's D
//   Judging  until the host sees the verdict's event, launches on the
//            decision's stream run the redirected clone, so the GPU's
//            verdict already applies to them
//   Steady   the verdict: the original, or the redirected clone with D;
//            every DIVOPT_REFRESH launches the slot goes Cold again
//
// The host never waits: it learns what the GPU decided with cudaEventQuery.
// Until it has seen the verdict, a launch on another stream first waits on
// the GPU for the decision's stream (D is complete only in its order) and
// the decision moves there. Under stream capture the slot launches the current verdict and
// pins its D, which a graph may hold forever.
#pragma once
#include "launch/KernelRegistry.h"
#include "launch/LaunchShape.h"
#include "online/DecisionKernels.h"
#include "online/OnlineStats.h"
#include "profile/ProfileLaunch.h"

#include <chrono>
#include <mutex>
#include <string>
#include <vector>

namespace divopt::rt::online {

// A kernel's first shapes are decided at their first launch, as a program of
// one shape per kernel needs; later ones wait (Waiting).
constexpr unsigned EagerShapes = 4;

// What a kernel's bound shapes tell its later ones (one per kernel, shared by
// its slots): how long its launches take per thread, how much of a launch a
// layout could save, and how much the guard's trials saw one save. Waiting
// shapes read it; the first bound queued is read from the GPU's results as
// soon as its event is done, by whichever slot asks first, so a later shape
// need not wait for that shape to come back.
class KernelHistory {
public:
  struct Facts {
    bool Known = false;      // a bound was seen, or none will be
    double MsPerThread = 0;  // 0: no timing (the bound never ran)
    double Ceiling = 0;      // the largest share of a launch a bound left room for
    double Measured = -1;    // the largest share a kept layout saved in trials; -1: none judged
  };
  unsigned nextOrdinal();
  // Wait: if the kernel's first bound is still on the GPU, wait for it, up
  // to MaxWaitMs (once: after a wait runs out, never again).
  Facts facts(bool Wait);
  static constexpr int MaxWaitMs = 20;
  // A slot queued its bound: its event and results, read once done.
  void pending(cudaEvent_t Bounded, const DecisionResult *Result, uint64_t Threads);
  // A slot saw its bound (its host read the results).
  void bound(const DecisionResult &Result, uint64_t Threads);
  // A slot's guard judged: the share of the reference launch its verdict
  // saves (0 where it kept the original).
  void judged(double Saved);
  // A slot whose bound will never run (disabled): the shapes waiting on it
  // fall back to their second launch.
  void giveUp();

private:
  void record(const DecisionResult &Result, uint64_t Threads);
  std::mutex Lock;
  unsigned Shapes = 0;
  cudaEvent_t PendingEvent = nullptr;
  const DecisionResult *PendingResult = nullptr;
  uint64_t PendingThreads = 0;
  bool WaitRanOut = false; // a wait for the pending bound ran out: no more waits
  Facts F;
};

class OnlineSlot {
public:
  // History: K's, shared by its slots; this slot's ordinal comes from it.
  OnlineSlot(KernelInfo &K, const Shape &S, KernelHistory &History);
  // Launches L (some variant of it) and returns the launch's result.
  cudaError_t launch(const LaunchRequest &L);
  // For the exit summary; takes the lock.
  OnlineStats stats();

private:
  enum class Phase { Waiting, Cold, Bounding, Trials, Judging, Steady, Disabled };
  struct RedirectBuffer {
    uint32_t *D = nullptr;
    bool Pinned = false;                // captured into a graph: never rewritten
    std::vector<cudaStream_t> ReadBy;   // streams that launched with it since written
  };

  cudaError_t startBound(const LaunchRequest &L);
  cudaError_t startDecision(const LaunchRequest &L);
  bool uploadProfileCosts(const LaunchRequest &L);
  cudaError_t trial(const LaunchRequest &L);
  cudaError_t launchOriginal(const LaunchRequest &L);
  cudaError_t launchRedirected(const LaunchRequest &L, RedirectBuffer &Buffer);
  cudaError_t disable(const LaunchRequest &L, const std::string &Why);
  bool allocateCosts(cudaStream_t Stream, std::string &Why);
  bool allocateResults(std::string &Why);
  bool allocateDecision(cudaStream_t Stream, std::string &Why);
  bool eventDone(cudaEvent_t E);
  void learn(); // reads what the GPU decided once its events are done
  void handOff(cudaStream_t Stream);
  void finish(bool Regroup);
  void finishUnbounded(); // the bound says no layout can gain
  bool decisionPaysNow();
  bool boundPaysNow();

  // Where a decision's host time went, for DIVOPT_VERBOSE=2.
  struct HostLaps {
    std::chrono::steady_clock::time_point Last = std::chrono::steady_clock::now();
    double TotalMs = 0;
    std::string Text;
    void lap(const char *Stage);
  };

  std::mutex Lock;
  KernelInfo &K;
  KernelHistory &History;
  Shape S;
  Machine M;
  Forced Choice = Forced::Auto;
  Phase Now = Phase::Cold;
  cudaStream_t DecisionStream = nullptr;
  unsigned TrialsQueued = 0;
  bool DecidedSeen = false;
  bool BoundSeen = false;           // the bound's event done: Result's bound is there
  uint64_t Waited = 0;              // launches while Waiting, the one that bounds included
  uint64_t Deferred = 0;            // launches run as written since, the decision not paying yet
  cudaStream_t BoundStream = nullptr;
  cudaEvent_t Bounded = nullptr, Decided = nullptr, Judged = nullptr, Handoff = nullptr;
  DecisionBuffers B;
  char *DecisionBlock = nullptr;    // B's buffers past the costs' block, kept for the process
  DecisionResult *Result = nullptr; // mapped pinned host memory
  RedirectBuffer Buffers[2];
  int Live = -1, Building = 0;      // Buffers index in Steady / of the decision
  bool UseRedirected = false;       // the Steady verdict
  uint64_t SinceDecision = 0;
  bool CostsChecked = false;
  bool FromProfile = false;         // costs from DIVOPT_PROFILE_USE: no cost clone
  float *StagedCost = nullptr;      // pinned, the profile's costs, kept for the process
  OnlineStats Stats;
  HostLaps Laps;
};

} // namespace divopt::rt::online
