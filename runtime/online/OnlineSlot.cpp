#include "online/OnlineSlot.h"
#include "launch/CloneLaunch.h"
#include "launch/RuntimeConfig.h"
#include "online/CostWeights.h"
#include "online/OnlineProcess.h"
#include "online/ProfileCosts.h"
#include "online/GainBound.h"
#include "online/ResultPool.h"
#include "online/ScratchPool.h"
#include "optimize/DeviceLatencyTable.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

namespace divopt::rt::online {
namespace {

// A regrouping must beat the original by 2% in the guard's trials: timing
// noise must not trade the original for something no faster.
constexpr double GuardMargin = 0.02;

const char *layoutName(uint32_t L) {
  return L == Sorted    ? "sorting"
         : L == Dealt   ? "greedy-max"
         : L == Chunked ? "chunked"
         : L == InBlocks ? "in-block"
         : L == Probe   ? "probe"
                        : "identity";
}

// On one cost per thread, Greedy is Sorting: its group starts from the
// costliest thread left, and of the threads no costlier than the group's
// cheapest, the one that gains most in the merge (2 min - max) is the
// costliest of them, the next in descending order (ties: the lowest thread,
// as the stable sort keeps them).
Forced forcedChoice() {
  const std::string &A = config().Algorithm;
  if (A == "sorting" || A == "greedy")
    return Forced::Sorting;
  if (A == "greedy-max")
    return Forced::GreedyMax;
  if (A == "chunked")
    return Forced::Chunked;
  if (A == "in-block")
    return Forced::InBlocks;
  return Forced::Auto;
}

bool capturing(cudaStream_t Stream) {
  cudaStreamCaptureStatus Status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(Stream, &Status) != cudaSuccess) {
    cudaGetLastError();
    return true; // the legacy stream while another captures: take no chances
  }
  return Status != cudaStreamCaptureStatusNone;
}

double nsToMs(double Ns) { return Ns / 1e6; }

double referenceMs(const DecisionResult &R) {
  return nsToMs(double(R.Stamps[CostEnd] - R.Stamps[CostStart]));
}

} // namespace

unsigned KernelHistory::nextOrdinal() {
  std::lock_guard<std::mutex> G(Lock);
  return Shapes++;
}

void KernelHistory::record(const DecisionResult &R, uint64_t Threads) {
  double LaunchMs = referenceMs(R);
  if (LaunchMs > 0 && Threads > 0)
    F.MsPerThread = LaunchMs / double(Threads);
  if (R.EstimateOriginal > 0)
    F.Ceiling = std::max(F.Ceiling, 1 - R.BestCase / R.EstimateOriginal);
  F.Known = true;
  PendingEvent = nullptr;
  PendingResult = nullptr;
}

KernelHistory::Facts KernelHistory::facts(bool Wait) {
  std::lock_guard<std::mutex> G(Lock);
  if (F.Known || !PendingEvent)
    return F;
  // A bounded wait, polled: the bound's stream could wait on something this
  // thread has yet to do (a stream memory operation, say), and a wait that
  // never ends would hang the program. Past it, the caller's fallback; and
  // once one wait has run out, no later launch waits again (each would pay
  // MaxWaitMs for nothing).
  Wait = Wait && !WaitRanOut;
  auto Give = std::chrono::steady_clock::now() + std::chrono::milliseconds(MaxWaitMs);
  for (;;) {
    cudaError_t E = cudaEventQuery(PendingEvent);
    if (E == cudaSuccess) {
      record(*PendingResult, PendingThreads);
      break;
    }
    if (E != cudaErrorNotReady) {
      cudaGetLastError();
      break;
    }
    if (!Wait)
      break;
    if (std::chrono::steady_clock::now() > Give) {
      WaitRanOut = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
  return F;
}

void KernelHistory::pending(cudaEvent_t Bounded, const DecisionResult *Result, uint64_t Threads) {
  std::lock_guard<std::mutex> G(Lock);
  if (F.Known || PendingEvent)
    return;
  PendingEvent = Bounded;
  PendingResult = Result;
  PendingThreads = Threads;
}

void KernelHistory::bound(const DecisionResult &Result, uint64_t Threads) {
  std::lock_guard<std::mutex> G(Lock);
  record(Result, Threads);
}

void KernelHistory::judged(double Saved) {
  std::lock_guard<std::mutex> G(Lock);
  F.Measured = std::max(F.Measured, std::max(0.0, Saved));
}

void KernelHistory::giveUp() {
  std::lock_guard<std::mutex> G(Lock);
  if (!PendingEvent) // else a shape's bound is on its way
    F.Known = true;
}

OnlineSlot::OnlineSlot(KernelInfo &K, const Shape &S, KernelHistory &History)
    : K(K), History(History), S(S), Choice(forcedChoice()),
      Now(History.nextOrdinal() < EagerShapes ? Phase::Cold : Phase::Waiting) {
  M.Blocks = S[0] * S[1] * S[2];
  M.ThreadsPerBlock = S[3] * S[4] * S[5];
  int Device = 0, SMs = 0;
  if (cudaGetDevice(&Device) == cudaSuccess &&
      cudaDeviceGetAttribute(&SMs, cudaDevAttrMultiProcessorCount, Device) == cudaSuccess &&
      SMs > 0)
    M.SMs = uint32_t(SMs);
  Stats.Kernel = K.Name;
  Stats.Shape = shapeText(S);
  if (Now == Phase::Waiting)
    Stats.Verdict = "waiting";
}

OnlineStats OnlineSlot::stats() {
  std::lock_guard<std::mutex> G(Lock);
  learn();
  return Stats;
}

cudaError_t OnlineSlot::launchOriginal(const LaunchRequest &L) {
  ++Stats.OriginalLaunches;
  return cudaLaunchKernel(L.Stub, L.Grid, L.Block, L.Args, L.SharedMem, L.Stream);
}

cudaError_t OnlineSlot::launchRedirected(const LaunchRequest &L, RedirectBuffer &Buffer) {
  if (rt::launchRedirected(K, L, Buffer.D) != CUDA_SUCCESS)
    return launchOriginal(L); // the original launch reports the error as it would have
  ++Stats.RedirectedLaunches;
  if (std::find(Buffer.ReadBy.begin(), Buffer.ReadBy.end(), L.Stream) == Buffer.ReadBy.end())
    Buffer.ReadBy.push_back(L.Stream);
  return cudaSuccess;
}

cudaError_t OnlineSlot::disable(const LaunchRequest &L, const std::string &Why) {
  Now = Phase::Disabled;
  History.giveUp();
  Stats.Disabled = Why;
  Stats.Verdict = "original";
  warn("not regrouping " + K.Name + " " + shapeText(S) + " online: " + Why +
       "; running the original");
  return launchOriginal(L);
}

bool OnlineSlot::eventDone(cudaEvent_t E) {
  cudaError_t R = cudaEventQuery(E);
  if (R == cudaSuccess)
    return true;
  if (R != cudaErrorNotReady)
    cudaGetLastError(); // e.g. queried during another thread's capture: ask later
  return false;
}

// The costs' block and the rest of the decision's buffers come from the
// scratch pool: a shape the gain bound turns away gives its costs back; a
// decided shape keeps both for the process, so every later decision of it
// reuses them.
//
// Before the reference launch: the costs' block, and in a process's first
// slot the decision's kernels (prepareProcess, unless the warm-up thread did
// it); after it, while the GPU runs the user's work, the mapped results and
// the events; at the decision, the rest.
bool OnlineSlot::allocateCosts(cudaStream_t Stream, std::string &Why) {
  if (!B.CostBlock) {
    void *Block = acquireScratch(costBufferBytes(M.Blocks * M.ThreadsPerBlock), Why);
    if (!Block)
      return false;
    carveCostBuffers(B, M.Blocks * M.ThreadsPerBlock, static_cast<char *>(Block));
  }
  Laps.lap("costs");
  prepareProcess(Stream); // done already where the warm-up thread ran
  Laps.lap("decision kernels");
  return true;
}

bool OnlineSlot::allocateResults(std::string &Why) {
  if (Result)
    return true;
  bool Ok = (Result = allocateResult()) != nullptr;
  Laps.lap("mapped results");
  for (cudaEvent_t *E : {&Bounded, &Decided, &Judged, &Handoff})
    Ok = Ok && cudaEventCreateWithFlags(E, cudaEventDisableTiming) == cudaSuccess;
  if (!Ok) {
    cudaGetLastError();
    Result = nullptr;
    Why = "no mapped memory or events for its results";
  }
  return Ok;
}

bool OnlineSlot::allocateDecision(cudaStream_t Stream, std::string &Why) {
  if (DecisionBlock)
    return true;
  size_t Bytes = decisionBufferBytes(M);
  Laps.lap("sort scratch size");
  // Kept for the process, never released: carved from the pool's slabs, so
  // that most shapes' decisions make no cudaMalloc of their own.
  if (!(DecisionBlock = static_cast<char *>(keepScratch(Bytes, Why))))
    return false;
  Buffers[0].D = carveDecisionBuffers(B, M, DecisionBlock);
  Laps.lap("buffers");
  if (queueIds(B, Stream) != cudaSuccess) {
    cudaGetLastError();
    Why = "its thread ids did not queue";
    return false;
  }
  return true;
}

void OnlineSlot::HostLaps::lap(const char *Stage) {
  auto Now = std::chrono::steady_clock::now();
  double Ms = std::chrono::duration<double, std::milli>(Now - Last).count();
  Last = Now;
  TotalMs += Ms;
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%s%s %.3f ms", Text.empty() ? "" : ", ", Stage, Ms);
  Text += Buf;
}

// Once per slot: the profile's costs for this shape into B.Cost, through a
// pinned buffer the slot keeps (a pageable copy would wait for the stream).
// The costs never change, so every later decision reuses them.
bool OnlineSlot::uploadProfileCosts(const LaunchRequest &L) {
  if (config().ProfileUse.empty())
    return false;
  std::vector<float> Cost;
  std::string Why;
  if (!profileCosts(K, L, Cost, Why)) {
    warn("online " + K.Name + " " + shapeText(S) + ": no costs from the profile (" + Why +
         "); the cost clone measures them");
    return false;
  }
  Laps.lap("profile costs");
  if (Cost.size() != B.Threads ||
      cudaHostAlloc(reinterpret_cast<void **>(&StagedCost), Cost.size() * sizeof(float),
                    cudaHostAllocDefault) != cudaSuccess) {
    cudaGetLastError();
    StagedCost = nullptr;
    return false;
  }
  std::copy(Cost.begin(), Cost.end(), StagedCost);
  bool Ok = cudaMemcpyAsync(B.Cost, StagedCost, Cost.size() * sizeof(float),
                            cudaMemcpyHostToDevice, L.Stream) == cudaSuccess;
  cudaGetLastError();
  Laps.lap("cost upload");
  return Ok;
}

cudaError_t OnlineSlot::startBound(const LaunchRequest &L) {
  Laps = HostLaps{};
  std::string Why;
  latencyTable(); // read once per process
  Laps.lap("latency table");
  if (!allocateCosts(L.Stream, Why))
    return disable(L, Why);
  if (!CostsChecked) {
    CostsChecked = true;
    FromProfile = uploadProfileCosts(L);
  }
  const std::vector<float> &Weights = costWeights(K);
  Laps.lap("weights");
  // The trials' clone loads now, while the GPU may be idle: under lazy
  // loading, a first lookup once the reference launch runs waits for it.
  redirectClone(K);
  Laps.lap("redirected clone");
  // The reference launch is the user's launch: the cost clone, which also
  // computes the kernel's results, or with costs from a profile the original.
  queueCostStart(B, L.Stream);
  if (FromProfile) {
    if (cudaError_t E = launchOriginal(L); E != cudaSuccess)
      return E;
  } else {
    if (launchCostClone(K, L, Weights, B.Cost) != CUDA_SUCCESS)
      return disable(L, "its cost clone did not launch");
    ++Stats.CostLaunches;
  }
  queueStamp(B, CostEnd, L.Stream);
  Laps.lap(FromProfile ? "original" : "cost clone");
  // From here on the GPU runs the user's work while the host queues the rest.
  // If it fails, the user's work is done; later launches run the original
  // (the costs' block stays: the GPU may still be writing it).
  cudaError_t E = cudaSuccess;
  if (!allocateResults(Why) ||
      (E = queueGainBound(B, M, config().MinGain, Choice, Result, L.Stream)) != cudaSuccess ||
      cudaEventRecord(Bounded, L.Stream) != cudaSuccess) {
    cudaGetLastError();
    Now = Phase::Disabled;
    History.giveUp();
    Stats.Disabled = !Why.empty() ? Why
                                  : std::string("the gain bound did not queue: ") +
                                        cudaGetErrorString(E);
    Stats.Verdict = "original";
    warn("not regrouping " + K.Name + " " + shapeText(S) + " online: " + Stats.Disabled +
         "; running the original");
    return cudaSuccess;
  }
  BoundStream = L.Stream;
  BoundSeen = false;
  History.pending(Bounded, Result, uint64_t(M.Blocks) * M.ThreadsPerBlock);
  Deferred = 0;
  SinceDecision = 0;
  Now = Phase::Bounding;
  Laps.lap("gain bound");
  Stats.DecisionHostMs += Laps.TotalMs;
  if (config().Verbose >= 2)
    warn("online " + K.Name + " " + shapeText(S) + ": gain bound queued; host: " + Laps.Text);
  return cudaSuccess;
}

cudaError_t OnlineSlot::startDecision(const LaunchRequest &L) {
  Laps = HostLaps{};
  std::string Why;
  // The costs are complete in the bound's stream order.
  if (L.Stream != BoundStream && cudaStreamWaitEvent(L.Stream, Bounded, 0) != cudaSuccess)
    cudaGetLastError();
  if (!allocateDecision(L.Stream, Why))
    return disable(L, Why);

  // Build into the buffer no Steady launch reads; wait (on the GPU) for the
  // streams that read it before, and never touch one a graph holds.
  Building = Live == 0 ? 1 : 0;
  RedirectBuffer &Target = Buffers[Building];
  if (Target.Pinned)
    Target = RedirectBuffer{};
  if (!Target.D &&
      cudaMalloc(reinterpret_cast<void **>(&Target.D), size_t(B.Threads) * 4) != cudaSuccess) {
    cudaGetLastError();
    return disable(L, "no GPU memory for its redirection array");
  }
  for (cudaStream_t Reader : Target.ReadBy)
    if (Reader != L.Stream && cudaEventRecord(Handoff, Reader) == cudaSuccess)
      cudaStreamWaitEvent(L.Stream, Handoff, 0);
  cudaGetLastError(); // a reader stream the user destroyed since
  Target.ReadBy.clear();

  if (cudaError_t E = queueDecision(B, M, config().MinGain, Choice, Target.D, Result, L.Stream);
      E != cudaSuccess || cudaEventRecord(Decided, L.Stream) != cudaSuccess) {
    cudaGetLastError();
    return disable(L, std::string("the GPU decision did not queue: ") + cudaGetErrorString(E));
  }
  ++Stats.Decisions;
  if (Stats.Verdict == "deferred")
    Stats.Verdict = "deciding";
  DecisionStream = L.Stream;
  DecidedSeen = false;
  TrialsQueued = 0;
  Laps.lap("decision kernels");
  Stats.DecisionHostMs += Laps.TotalMs;
  if (config().Verbose >= 2)
    warn("online " + K.Name + " " + shapeText(S) + ": decision " +
         std::to_string(Stats.Decisions) + " queued; host: " + Laps.Text);
  if (Choice == Forced::Auto) {
    Now = Phase::Trials;
    return trial(L); // this launch is the first trial
  }
  // Asked for by name: no guard, the GPU's choice is the verdict.
  cudaEventRecord(Judged, L.Stream);
  Now = Phase::Judging;
  return launchRedirected(L, Target);
}

cudaError_t OnlineSlot::trial(const LaunchRequest &L) {
  unsigned Trial = TrialsQueued++;
  // D is rewritten before the stamps, so the trial times the launch alone.
  queueTrialLayout(B, M, Trial, GuardMargin, FromProfile ? 1.0 : CostCloneBound,
                   Buffers[Building].D, Result, L.Stream);
  queueStamp(B, Stamp(FirstTrial + 2 * Trial), L.Stream);
  cudaError_t R = launchRedirected(L, Buffers[Building]);
  ++Stats.TrialLaunches;
  queueStamp(B, Stamp(FirstTrial + 2 * Trial + 1), L.Stream);
  if (TrialsQueued == GuardTrials) {
    if (queueVerdict(B, M, GuardMargin, Buffers[Building].D, Result, L.Stream) != cudaSuccess ||
        cudaEventRecord(Judged, L.Stream) != cudaSuccess) {
      cudaGetLastError();
      finish(false);
    } else {
      Now = Phase::Judging;
    }
  }
  return R;
}

// D is only complete in the decision stream's order: a launch on another
// stream during the trials first waits (on the GPU) for everything queued
// there, and the decision follows it to its stream.
void OnlineSlot::handOff(cudaStream_t Stream) {
  if (Stream == DecisionStream)
    return;
  if (cudaEventRecord(Handoff, DecisionStream) == cudaSuccess)
    cudaStreamWaitEvent(Stream, Handoff, 0);
  cudaGetLastError();
  DecisionStream = Stream;
}

void OnlineSlot::finish(bool Regroup) {
  Now = Phase::Steady;
  UseRedirected = Regroup;
  if (Regroup)
    Live = Building;
  Stats.Verdict = Regroup ? "regrouped" : "original";
  if (config().Verbose) {
    std::string Guard;
    for (unsigned T = 0; T < GuardTrials; ++T)
      if (Stats.TrialMs[T] > 0) {
        char Trial[64];
        std::snprintf(Trial, sizeof Trial, "%s%s %.3f ms", Guard.empty() ? "" : ", ",
                      Stats.TrialLayout[T].c_str(), Stats.TrialMs[T]);
        Guard += Trial;
      }
    std::string Local; // the estimates of the layouts only a trial can judge
    for (auto [Name, Cycles] : {std::pair{"chunked", Result->EstimateChunked},
                                std::pair{"in-block", Result->EstimateInBlocks}})
      if (DecidedSeen && Cycles > 0) {
        char Estimate[40];
        std::snprintf(Estimate, sizeof Estimate, "; %s %+.1f%%", Name,
                      100 * (Result->EstimateOriginal / Cycles - 1));
        Local += Estimate;
      }
    char Line[440];
    std::snprintf(Line, sizeof Line,
                  "online %s %s: %s; estimate %+.1f%% (%s, original %.4g cycles%s); %s "
                  "%.3f ms; decision %.3f ms GPU, %.3f ms host so far; guard: %s",
                  K.Name.c_str(), shapeText(S).c_str(),
                  Regroup ? "regrouping" : "keeping the original", 100 * Stats.EstimatedGain,
                  Stats.Layout.c_str(), DecidedSeen ? Result->EstimateOriginal : 0.0, Local.c_str(),
                  FromProfile ? "costs from the profile, original" : "cost clone",
                  Stats.CostCloneMs, Stats.DecisionGpuMs, Stats.DecisionHostMs,
                  Guard.empty() ? "no trials" : Guard.c_str());
    warn(Line);
  }
}

void OnlineSlot::finishUnbounded() {
  Now = Phase::Steady;
  UseRedirected = false;
  Stats.Verdict = "original";
  Stats.Layout = "-";
  Stats.ReferenceMs = Stats.KeptMs = Stats.CostCloneMs;
  Stats.EstimatedGain = Result->BestCase > 0 ? Result->EstimateOriginal / Result->BestCase - 1 : 0;
  // Profile costs are uploaded once and kept; a clone's are measured anew.
  if (!FromProfile) {
    releaseScratch(B.CostBlock);
    B.CostBlock = nullptr;
    B.Cost = nullptr;
    B.Control = nullptr;
    B.BoundSums = nullptr;
  }
  if (config().Verbose) {
    char Line[320];
    std::snprintf(Line, sizeof Line,
                  "online %s %s: keeping the original; no layout can gain %.0f%% (at most "
                  "%+.1f%%, original %.4g cycles); %s %.3f ms; no decision",
                  K.Name.c_str(), shapeText(S).c_str(), 100 * config().MinGain,
                  // The layout as written gains nothing: a bound below it
                  // is rounding ("-0.0%").
                  100 * std::max(0.0, Stats.EstimatedGain), Result->EstimateOriginal,
                  FromProfile ? "costs from the profile, original" : "cost clone",
                  Stats.CostCloneMs);
    warn(Line);
  }
}

// Where the bound is seen and leaves room: whether this launch decides, or
// runs the original because the launches so far could not have saved what a
// decision costs (decisionPays). A layout asked for by name decides at once,
// and so does a refresh: the shape paid for a decision before, and its
// launches run the last verdict's layout only once the next is made.
bool OnlineSlot::decisionPaysNow() {
  if (!BoundSeen || Choice != Forced::Auto || Stats.Decisions > 0)
    return true;
  double LaunchMs = referenceMs(*Result);
  // The launches a Waiting shape ran as written count too: the last of
  // them was the cost clone's.
  if (decisionPays(std::max<uint64_t>(Waited, 1) + Deferred, LaunchMs, Result->EstimateOriginal,
                   Result->BestCase, B.Threads))
    return true;
  if (Deferred == 0 && config().Verbose) {
    char Line[320];
    std::snprintf(Line, sizeof Line,
                  "online %s %s: deferring the decision: its launches (%.3f ms, the cost clone) "
                  "could save at most %.0f%% each, and a decision costs about %.2f ms",
                  K.Name.c_str(), shapeText(S).c_str(), LaunchMs,
                  100 * (1 - Result->BestCase / Result->EstimateOriginal),
                  decisionCostMs(B.Threads));
    warn(Line);
  }
  Stats.Verdict = "deferred";
  ++Deferred;
  return false;
}

// Whether a Waiting shape's launch, counted here, runs its cost clone
// (boundPays). Its first launch runs as written unless the kernel's first
// bound is done. From its second, it waits for that bound while it is still
// on the GPU (up to MaxWaitMs): the host is then ahead of the GPU, which has
// the launches queued since to run meanwhile. Without the wait, a kernel of
// 2 ms launches whose host queued all 200 of them before the GPU reached the
// first bound ran its later shapes as written 21 of their 25 launches
// (varying_shapes with heavy = 25600, H100). A kernel none of whose shapes could be bound
// falls back to deciding a shape when it comes back.
bool OnlineSlot::boundPaysNow() {
  ++Waited;
  KernelHistory::Facts H = History.facts(/*Wait=*/Waited >= 2);
  uint32_t Threads = M.Blocks * M.ThreadsPerBlock;
  if (!H.Known || H.MsPerThread <= 0)
    return Waited >= 2;
  // What a kept layout saved in the kernel's trials where one was judged,
  // else the bounds' room (the trials saw 55% of varying_shapes' 83%). A
  // kernel whose shapes could not gain may still gain in this one: its
  // launches pay for a look once they could have saved DIVOPT_MIN_GAIN.
  double Gain = H.Measured >= 0 ? H.Measured : H.Ceiling;
  return boundPays(Waited, H.MsPerThread * Threads, std::max(Gain, config().MinGain), Threads);
}

// Everything the host reads here was written by kernels before the event.
void OnlineSlot::learn() {
  if (Now == Phase::Bounding && !BoundSeen && eventDone(Bounded)) {
    BoundSeen = true;
    History.bound(*Result, uint64_t(M.Blocks) * M.ThreadsPerBlock);
    Stats.CostCloneMs = referenceMs(*Result);
    if (!Result->MayGain) {
      finishUnbounded();
      return;
    }
  }
  if ((Now == Phase::Trials || Now == Phase::Judging) && !DecidedSeen && eventDone(Decided)) {
    DecidedSeen = true;
    Stats.Layout = layoutName(Result->Estimated);
    Stats.EstimatedGain =
        Result->EstimateChosen > 0 ? Result->EstimateOriginal / Result->EstimateChosen - 1 : 0;
    Stats.CostCloneMs = referenceMs(*Result);
    Stats.DecisionGpuMs +=
        nsToMs(double(Result->Stamps[DecisionEnd] - Result->Stamps[DecisionStart]));
    if (Result->Estimated == Identity) {
      finish(false); // the estimate sees no gain: no trials needed
      return;
    }
  }
  if (Now == Phase::Judging && DecidedSeen && eventDone(Judged)) {
    static_assert(GuardTrials == OnlineStats::MaxTrials);
    Stats.ReferenceMs = Stats.CostCloneMs;
    for (unsigned T = 0; T < GuardTrials; ++T) {
      Stats.TrialLayout[T] = layoutName(Result->TrialLayout[T]);
      Stats.TrialMs[T] = nsToMs(Result->TrialNs[T]);
      if (Result->TrialLayout[T] == Identity && Stats.TrialMs[T] > 0)
        Stats.ReferenceMs = Stats.TrialMs[T];
    }
    bool Regroup = Result->Chosen != Identity;
    Stats.KeptMs = Stats.ReferenceMs;
    if (Regroup) {
      Stats.Layout = layoutName(Result->Chosen);
      // A layout only a trial could judge was kept: its own estimate.
      double Kept = Result->Chosen == Chunked    ? Result->EstimateChunked
                    : Result->Chosen == InBlocks ? Result->EstimateInBlocks
                                                 : 0;
      if (Kept > 0)
        Stats.EstimatedGain = Result->EstimateOriginal / Kept - 1;
      for (unsigned T = 0; T < GuardTrials; ++T)
        if (Result->TrialLayout[T] == Result->Chosen && Stats.TrialMs[T] > 0)
          Stats.KeptMs = Stats.TrialMs[T];
    }
    if (Stats.ReferenceMs > 0)
      History.judged(1 - Stats.KeptMs / Stats.ReferenceMs);
    finish(Regroup);
  }
}

cudaError_t OnlineSlot::launch(const LaunchRequest &L) {
  std::lock_guard<std::mutex> G(Lock);
  if (Now == Phase::Disabled)
    return launchOriginal(L);
  if (capturing(L.Stream)) {
    // No events, no decision: a graph replays what it captured, forever.
    if (Now == Phase::Steady && UseRedirected) {
      Buffers[Live].Pinned = true;
      return launchRedirected(L, Buffers[Live]);
    }
    return launchOriginal(L);
  }
  learn();
  if (Now == Phase::Steady && ++SinceDecision >= config().Refresh)
    Now = Phase::Cold;
  switch (Now) {
  case Phase::Waiting:
    if (!boundPaysNow())
      return launchOriginal(L);
    Now = Phase::Cold;
    [[fallthrough]];
  case Phase::Cold:
    if (Stats.Verdict == "waiting")
      Stats.Verdict = "deciding"; // the shape came back often enough
    return startBound(L);
  case Phase::Bounding:
    return decisionPaysNow() ? startDecision(L) : launchOriginal(L);
  case Phase::Trials:
    handOff(L.Stream);
    return trial(L);
  case Phase::Judging:
    handOff(L.Stream);
    return launchRedirected(L, Buffers[Building]);
  case Phase::Steady:
    return UseRedirected ? launchRedirected(L, Buffers[Live]) : launchOriginal(L);
  case Phase::Disabled:
    break;
  }
  return launchOriginal(L);
}

} // namespace divopt::rt::online
