#include "online/OnlineSlot.h"
#include "launch/CloneLaunch.h"
#include "launch/RuntimeConfig.h"
#include "online/CostWeights.h"
#include "online/ResultPool.h"
#include "optimize/DeviceLatencyTable.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace divopt::rt::online {
namespace {

// A regrouping must beat the original by 2% in the guard's trials: timing
// noise must not trade the original for something no faster.
constexpr double GuardMargin = 0.02;

const char *layoutName(uint32_t L) {
  return L == Sorted ? "sorting" : L == Dealt ? "greedy-max" : "original";
}

Forced forcedChoice() {
  const std::string &A = config().Algorithm;
  if (A == "sorting")
    return Forced::Sorting;
  if (A == "greedy-max")
    return Forced::GreedyMax;
  if (A == "greedy") {
    static std::once_flag Once;
    std::call_once(Once, [] {
      warn("DIVOPT_ALGORITHM=greedy has no GPU formulation; online mode sorts instead");
    });
    return Forced::Sorting;
  }
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

} // namespace

OnlineSlot::OnlineSlot(KernelInfo &K, const Shape &S) : K(K), S(S), Choice(forcedChoice()) {
  M.Blocks = S[0] * S[1] * S[2];
  M.ThreadsPerBlock = S[3] * S[4] * S[5];
  int Device = 0, SMs = 0;
  if (cudaGetDevice(&Device) == cudaSuccess &&
      cudaDeviceGetAttribute(&SMs, cudaDevAttrMultiProcessorCount, Device) == cudaSuccess &&
      SMs > 0)
    M.SMs = uint32_t(SMs);
  Stats.Kernel = K.Name;
  Stats.Shape = shapeText(S);
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

// Buffers stay for the process: every later decision of this shape reuses
// them. cudaMalloc, not cudaMallocAsync: the memory is at once usable from
// every stream, and a process's first cudaMallocAsync costs 9-10 ms (the
// pool's set-up) on an H100.
bool OnlineSlot::allocate(cudaStream_t Stream, std::string &Why) {
  if (B.Cost)
    return true;
  uint32_t N = M.Blocks * M.ThreadsPerBlock;
  B.Threads = N;
  B.SortTempBytes = sortTempBytes(N);
  Laps.lap("sort scratch size");
  // One allocation carved into every buffer and the first D: each cudaMalloc
  // of megabytes costs 0.2-0.4 ms of host time on an H100.
  size_t Words = size_t(N) * 4, Offset = 0;
  auto Carve = [&](size_t Bytes) {
    size_t At = Offset;
    Offset += (Bytes + 255) / 256 * 256;
    return At;
  };
  size_t ProbeWords = size_t(probeThreads(M)) * 4;
  size_t Cost = Carve(Words), SortedCost = Carve(Words), Ids = Carve(Words), Perm = Carve(Words),
         ProbeCostIn = Carve(ProbeWords), ProbeIdsIn = Carve(ProbeWords),
         ProbeCost = Carve(ProbeWords), ProbePerm = Carve(ProbeWords), D = Carve(Words),
         Temp = Carve(B.SortTempBytes), Sums = Carve(sizeof(LayoutSums)),
         Control = Carve(sizeof(GuardControl));
  char *Base = nullptr;
  bool Ok = cudaMalloc(reinterpret_cast<void **>(&Base), Offset) == cudaSuccess;
  Laps.lap("buffers");
  Ok = Ok && (Result = allocateResult()) != nullptr;
  Laps.lap("mapped results");
  Ok = Ok && cudaEventCreateWithFlags(&Decided, cudaEventDisableTiming) == cudaSuccess &&
            cudaEventCreateWithFlags(&Judged, cudaEventDisableTiming) == cudaSuccess &&
            cudaEventCreateWithFlags(&Handoff, cudaEventDisableTiming) == cudaSuccess;
  if (Ok) {
    B.Cost = reinterpret_cast<float *>(Base + Cost);
    B.SortedCost = reinterpret_cast<float *>(Base + SortedCost);
    B.Ids = reinterpret_cast<uint32_t *>(Base + Ids);
    B.Perm = reinterpret_cast<uint32_t *>(Base + Perm);
    B.ProbeCostIn = reinterpret_cast<float *>(Base + ProbeCostIn);
    B.ProbeIdsIn = reinterpret_cast<uint32_t *>(Base + ProbeIdsIn);
    B.ProbeCost = reinterpret_cast<float *>(Base + ProbeCost);
    B.ProbePerm = reinterpret_cast<uint32_t *>(Base + ProbePerm);
    B.SortTemp = Base + Temp;
    B.Sums = reinterpret_cast<LayoutSums *>(Base + Sums);
    B.Control = reinterpret_cast<GuardControl *>(Base + Control);
    Buffers[0].D = reinterpret_cast<uint32_t *>(Base + D);
    Ok = queueIds(B, Stream) == cudaSuccess;
    Laps.lap("thread ids");
  }
  if (!Ok) {
    cudaGetLastError();
    Why = "no GPU memory for its " + std::to_string(Offset / 1024) + " KiB of decision buffers";
    B.Cost = nullptr;
  }
  return Ok;
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

cudaError_t OnlineSlot::startDecision(const LaunchRequest &L) {
  Laps = HostLaps{};
  std::string Why;
  latencyTable(); // read once per process
  Laps.lap("latency table");
  CostWeights W = costWeights(K, L.Stream, Why);
  if (!W.Device)
    return disable(L, Why.empty() ? "its block weights are not on the GPU" : Why);
  Laps.lap("weights");
  if (!allocate(L.Stream, Why))
    return disable(L, Why);
  cudaStreamWaitEvent(L.Stream, W.Ready, 0);

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

  // The cost clone is the user's launch: it computes the kernel's results.
  queueStamp(Result, CostStart, L.Stream);
  if (launchCostClone(K, L, W.Device, B.Cost) != CUDA_SUCCESS)
    return disable(L, "its cost clone did not launch");
  ++Stats.CostLaunches;
  queueStamp(Result, CostEnd, L.Stream);
  Laps.lap("cost clone");
  if (cudaError_t E = queueDecision(B, M, config().MinGain, Choice, Target.D, Result, L.Stream);
      E != cudaSuccess || cudaEventRecord(Decided, L.Stream) != cudaSuccess) {
    cudaGetLastError();
    // The user's work is done; later launches run the original.
    Now = Phase::Disabled;
    Stats.Disabled = std::string("the GPU decision did not queue: ") + cudaGetErrorString(E);
    Stats.Verdict = "original";
    return cudaSuccess;
  }
  ++Stats.Decisions;
  DecisionStream = L.Stream;
  DecidedSeen = false;
  TrialsQueued = 0;
  SinceDecision = 0;
  if (Choice == Forced::Auto) {
    Now = Phase::Trials;
  } else { // asked for by name: no guard, the GPU's choice is the verdict
    cudaEventRecord(Judged, L.Stream);
    Now = Phase::Judging;
  }
  Laps.lap("decision kernels");
  Stats.DecisionHostMs += Laps.TotalMs;
  if (config().Verbose >= 2)
    warn("online " + K.Name + " " + shapeText(S) + ": decision " +
         std::to_string(Stats.Decisions) + " queued; host: " + Laps.Text);
  return cudaSuccess;
}

cudaError_t OnlineSlot::trial(const LaunchRequest &L) {
  unsigned Trial = TrialsQueued++;
  // D is rewritten before the stamps, so the trial times the launch alone.
  if (Trial != OriginalTrial)
    queueTrialLayout(B, M, Trial, Buffers[Building].D, Result, L.Stream);
  queueStamp(Result, Stamp(FirstTrial + 2 * Trial), L.Stream);
  cudaError_t R =
      Trial == OriginalTrial ? launchOriginal(L) : launchRedirected(L, Buffers[Building]);
  ++Stats.TrialLaunches;
  queueStamp(Result, Stamp(FirstTrial + 2 * Trial + 1), L.Stream);
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
    char Line[400];
    std::snprintf(Line, sizeof Line,
                  "online %s %s: %s; estimate %+.1f%% (%s, original %.4g cycles); cost clone "
                  "%.3f ms; decision %.3f ms GPU, %.3f ms host so far; guard: original %.3f ms, "
                  "identity %.3f ms, probe %.3f ms, regrouped %.3f ms",
                  K.Name.c_str(), shapeText(S).c_str(),
                  Regroup ? "regrouping" : "keeping the original", 100 * Stats.EstimatedGain,
                  Stats.Layout.c_str(), DecidedSeen ? Result->EstimateOriginal : 0.0,
                  Stats.CostCloneMs, Stats.DecisionGpuMs, Stats.DecisionHostMs, Stats.OriginalMs,
                  Stats.IdentityMs, Stats.ProbeMs, Stats.RegroupedMs);
    warn(Line);
  }
}

// Everything the host reads here was written by kernels before the event.
void OnlineSlot::learn() {
  if ((Now == Phase::Trials || Now == Phase::Judging) && !DecidedSeen && eventDone(Decided)) {
    DecidedSeen = true;
    Stats.Layout = layoutName(Result->Estimated);
    Stats.EstimatedGain =
        Result->EstimateChosen > 0 ? Result->EstimateOriginal / Result->EstimateChosen - 1 : 0;
    Stats.CostCloneMs = nsToMs(double(Result->Stamps[CostEnd] - Result->Stamps[CostStart]));
    Stats.DecisionGpuMs +=
        nsToMs(double(Result->Stamps[DecisionEnd] - Result->Stamps[DecisionStart]));
    if (Result->Estimated == Identity) {
      finish(false); // the estimate sees no gain: no trials needed
      return;
    }
  }
  if (Now == Phase::Judging && DecidedSeen && eventDone(Judged)) {
    Stats.OriginalMs = nsToMs(Result->TrialNs[OriginalTrial]);
    Stats.IdentityMs = nsToMs(Result->TrialNs[IdentityTrial]);
    Stats.ProbeMs = nsToMs(Result->TrialNs[ProbeTrial]);
    Stats.RegroupedMs = nsToMs(Result->TrialNs[FullTrial]);
    if (Result->Chosen != Identity)
      Stats.Layout = layoutName(Result->Chosen);
    finish(Result->Chosen != Identity);
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
  case Phase::Cold:
    return startDecision(L);
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
