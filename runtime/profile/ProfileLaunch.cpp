#include "profile/ProfileLaunch.h"
#include "launch/CloneLaunch.h"
#include "launch/DriverApi.h"
#include "launch/LaunchShape.h"
#include "launch/RuntimeConfig.h"
#include "profile/FeatureCompaction.h"
#include "profile/ProfileCompaction.h"
#include "profile/ProfileSink.h"
#include "profile/ProfileStats.h"
#include "divopt/Abi.h"
#include "divopt/Runtime.h"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <mutex>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace divopt::rt {
namespace {

using profile::CompactionBuffers;
using profile::CompactionLayout;
using profile::CompactionResult;

// Buffer sets one kernel and shape may hold at once: each profiled launch
// holds one from its launch until the copier has copied its record out.
// Large sets are not duplicated: allocating gigabytes costs more host time
// (tens to hundreds of ms on an H100) than waiting for the launch before to
// be compacted and copied.
constexpr size_t MaxSetsPerShape = 3;
constexpr uint64_t MaxDuplicatedSetBytes = uint64_t(256) << 20;

struct DeviceFacts {
  std::string Name;
  uint32_t ComputeCapability = 0;
  uint32_t Driver = 0;
};

DeviceFacts deviceFacts() {
  DeviceFacts F;
  int Device = 0, Driver = 0;
  cudaDeviceProp P{};
  if (cudaGetDevice(&Device) == cudaSuccess && cudaGetDeviceProperties(&P, Device) == cudaSuccess) {
    F.Name = P.name;
    F.ComputeCapability = P.major * 10 + P.minor;
  }
  cudaDriverGetVersion(&Driver);
  F.Driver = Driver;
  return F;
}

// One launch's device buffers (one allocation), its mapped result and the
// event after its compaction. Busy from the launch until the writer has
// copied the record out.
struct DeviceSet {
  CompactionBuffers Buffers;
  CompactionResult *Result = nullptr;
  cudaEvent_t Done = nullptr;
  bool Busy = false;
};

struct ShapeState {
  KernelInfo *K = nullptr;
  Shape S{};
  bool Usable = true;
  bool MemoryWarned = false, AllocWarned = false, CaptureWarned = false;
  // Wide: u32 counters (DIVOPT_PROFILE_COUNTERS=32, or after a narrow
  // launch's overflow list was too small for its overflowing threads).
  bool Wide = false;
  uint32_t Counters = 0, Features = 0;
  CompactionLayout Layout;
  std::vector<std::unique_ptr<DeviceSet>> Sets;
  uint64_t Profiled = 0; // launches queued with the profile clone
  ProfileStats Stats;
};

using Key = std::pair<const KernelInfo *, Shape>;
struct KeyHash {
  size_t operator()(const Key &K) const {
    size_t H = std::hash<const void *>()(K.first);
    for (uint32_t V : K.second)
      H = (H ^ V) * 0x100000001b3ull;
    return H;
  }
};

struct Profiler {
  std::mutex Lock;
  std::condition_variable Released;
  std::unordered_map<Key, std::unique_ptr<ShapeState>, KeyHash> Shapes;
  std::vector<ShapeState *> Order; // as first seen
  bool BudgetKnown = false;
  uint64_t Budget = 0;
  uint64_t Held = 0; // bytes of every shape's device sets
};

Profiler &profiler() {
  static auto *P = new Profiler; // outlives static destructors; used at exit
  return *P;
}

// DIVOPT_PROFILE_COUNTERS: 16 (default) profiles in narrow mode (u16
// counters, overflow list), 32 in wide mode (u32 counters).
bool narrowCounters() {
  static const bool Narrow = [] {
    const char *W = std::getenv("DIVOPT_PROFILE_COUNTERS");
    if (!W || !*W || std::string(W) == "16")
      return true;
    if (std::string(W) == "32")
      return false;
    warn(std::string("DIVOPT_PROFILE_COUNTERS='") + W + "' is neither 16 nor 32; using 16");
    return true;
  }();
  return Narrow;
}

std::string mib(uint64_t Bytes) { return std::to_string((Bytes + (1 << 19)) >> 20) + " MiB"; }

// The budget, fixed at the first profiled launch: DIVOPT_PROFILE_MEMORY's
// bytes, or its percentage (default 50%) of the GPU memory free then. Half by
// default because the program keeps allocating after its first launch, and
// the buffers stay pooled for later launches of the same shape.
uint64_t budget(Profiler &P) {
  if (!P.BudgetKnown) {
    P.BudgetKnown = true;
    const RuntimeConfig &C = config();
    if (C.ProfileMemoryPercent > 0) {
      size_t Free = 0, Total = 0;
      if (cudaMemGetInfo(&Free, &Total) != cudaSuccess) {
        cudaGetLastError();
        Free = 0;
      }
      P.Budget = uint64_t(double(Free) * C.ProfileMemoryPercent / 100);
    } else {
      P.Budget = C.ProfileMemoryBytes;
    }
    if (C.Verbose >= 1)
      warn("profile memory budget: " + std::to_string(P.Budget) + " bytes (" + mib(P.Budget) + ")");
  }
  return P.Budget;
}

ShapeState &shapeFor(Profiler &P, KernelInfo &K, const Shape &S) {
  auto &Slot = P.Shapes[{&K, S}];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<ShapeState>();
  ShapeState &St = *Slot;
  P.Order.push_back(&St);
  St.K = &K;
  St.S = S;
  uint64_t T = uint64_t(S[0]) * S[1] * S[2] * S[3] * S[4] * S[5];
  ProfileStats &R = St.Stats;
  R.Kernel = K.Name;
  R.Grid = {S[0], S[1], S[2]};
  R.Block = {S[3], S[4], S[5]};
  R.Threads = T;
  R.Blocks = uint32_t(K.Note.Blocks.size());
  R.Branches = uint32_t(K.Note.BranchBlocks.size());
  try {
    St.Counters = counterPlan(K.Note).numCounters();
  } catch (const std::exception &E) {
    St.Usable = false;
    warn("not profiling kernel " + K.Name + ": its notes' counters are unusable (" + E.what() +
         "); running the original");
    return St;
  }
  if (K.FeatureClone)
    St.Features = uint32_t(K.Note.Features.size());
  else if (!K.FeatureProblem.empty() && !K.FeatureWarned.exchange(true))
    warn("profiling " + K.Name + " without feature values: " + K.FeatureProblem);
  R.Counters = St.Counters;
  R.Features = St.Features;
  St.Wide = !narrowCounters();
  if (!profile::planCompaction(T, St.Counters, R.Branches, St.Features, !St.Wide, St.Layout)) {
    St.Usable = false;
    warn("not profiling " + K.Name + " " + shapeText(S) + ": " + std::to_string(T) +
         " threads, more than the profile's compaction handles (2^31 - 1); running the original");
    return St;
  }
  const CompactionLayout &L = St.Layout;
  R.CounterBytes = L.counterBytes();
  R.CounterWidth = L.Narrow ? 16 : 32;
  R.ScratchBytes = L.scratchBytes();
  R.LegacyCounterBytes = uint64_t(R.Blocks) * T * 4 + (T + 31) / 32 * 2 * R.Branches * 8;
  return St;
}

// A free set of St's, or a new one within the budget (freeing idle sets of
// other shapes for it), or, while the budget is held by sets still being
// written, one the writer hands back. Null: this launch is not profiled.
DeviceSet *acquireSet(Profiler &P, ShapeState &St, std::unique_lock<std::mutex> &G,
                      uint64_t LaunchIndex) {
  uint64_t Need = St.Layout.Total, Budget = budget(P);
  for (;;) {
    // Idle sets of the shape's former layout (narrow, before it went wide)
    // are of no more use.
    for (size_t I = 0; I < St.Sets.size();) {
      DeviceSet &Set = *St.Sets[I];
      if (Set.Busy || Set.Buffers.Layout.Narrow == St.Layout.Narrow) {
        ++I;
        continue;
      }
      cudaFree(Set.Buffers.Base);
      cudaFreeHost(Set.Result);
      cudaEventDestroy(Set.Done);
      P.Held -= Set.Buffers.Layout.Total;
      St.Sets.erase(St.Sets.begin() + I);
    }
    for (auto &Set : St.Sets)
      if (!Set->Busy && Set->Buffers.Layout.Narrow == St.Layout.Narrow) {
        Set->Busy = true;
        return Set.get();
      }
    if (Need > Budget) {
      ++St.Stats.SkippedForMemory;
      if (!St.MemoryWarned) {
        St.MemoryWarned = true;
        warn("not profiling launch " + std::to_string(LaunchIndex) + " of " + St.K->Name + " " +
             shapeText(St.S) + ": it needs " + std::to_string(Need) + " bytes of GPU memory (" +
             mib(Need) + ": " + std::to_string(St.Counters) + " counters x " +
             std::to_string(St.Stats.Threads) + " threads, branch buckets, compaction scratch" +
             (St.Features ? ", feature values" : "") + "), over the profile budget of " +
             std::to_string(Budget) + " bytes (" + mib(Budget) +
             ", DIVOPT_PROFILE_MEMORY); running the original");
      }
      return nullptr;
    }
    size_t MaxSets = Need <= MaxDuplicatedSetBytes ? MaxSetsPerShape : 1;
    if (St.Sets.size() < MaxSets) {
      // Idle sets of other shapes make room (cudaFree waits for the GPU,
      // but only here, when the budget is full).
      for (ShapeState *Other : P.Order) {
        if (P.Held + Need <= Budget)
          break;
        auto &Sets = Other->Sets;
        for (size_t I = 0; I < Sets.size() && P.Held + Need > Budget;) {
          if (Sets[I]->Busy) {
            ++I;
            continue;
          }
          cudaFree(Sets[I]->Buffers.Base);
          cudaFreeHost(Sets[I]->Result);
          cudaEventDestroy(Sets[I]->Done);
          P.Held -= Sets[I]->Buffers.Layout.Total;
          Sets.erase(Sets.begin() + I);
        }
      }
      if (P.Held + Need <= Budget) {
        auto Set = std::make_unique<DeviceSet>();
        Set->Buffers.Layout = St.Layout;
        bool Ok = cudaMalloc(reinterpret_cast<void **>(&Set->Buffers.Base), Need) == cudaSuccess;
        Ok = Ok && cudaHostAlloc(reinterpret_cast<void **>(&Set->Result),
                                 sizeof(CompactionResult) + profile::featureResultBytes(St.Features),
                                 cudaHostAllocMapped) == cudaSuccess;
        Ok = Ok && cudaEventCreateWithFlags(&Set->Done, cudaEventDisableTiming |
                                                            cudaEventBlockingSync) == cudaSuccess;
        if (!Ok) {
          cudaGetLastError();
          if (Set->Buffers.Base)
            cudaFree(Set->Buffers.Base);
          if (Set->Result)
            cudaFreeHost(Set->Result);
          if (!St.AllocWarned) {
            St.AllocWarned = true;
            warn("cannot allocate " + std::to_string(Need) + " bytes of GPU memory to profile " +
                 St.K->Name + " " + shapeText(St.S) + "; this launch runs unprofiled");
          }
          return nullptr;
        }
        *Set->Result = CompactionResult{};
        P.Held += Need;
        Set->Busy = true;
        St.Sets.push_back(std::move(Set));
        St.Stats.DeviceBytes = std::max<uint64_t>(St.Stats.DeviceBytes, St.Sets.size() * Need);
        return St.Sets.back().get();
      }
    }
    // Every set this shape may have, or the budget, is held by records the
    // writer has not copied yet: wait for one.
    P.Released.wait(G);
  }
}

void release(Profiler &P, DeviceSet *Set) {
  std::lock_guard<std::mutex> G(P.Lock);
  Set->Busy = false;
  P.Released.notify_all();
}

// The version-2 record this launch would have been: header (96 bytes and
// the three names), notes, B*T counts, 2K branch sums, F and F*T features.
uint64_t legacyRecordBytes(const LaunchHeader &H, const ProfileStats &R, bool Features) {
  uint64_t T = H.threads();
  return 96 + H.Kernel.size() + H.Program.size() + H.Device.size() + 4 + H.Notes.size() +
         uint64_t(R.Blocks) * T * 4 + 16 * uint64_t(R.Branches) + 4 +
         (Features ? uint64_t(R.Features) * T * 8 : 0);
}

// The profile clone with its hidden parameters (divopt/Abi.h): counts,
// branch buckets, and the overflow list (narrow mode: u16 counters), or
// null (wide mode: u32 counters).
CUresult launchProfileClone(const KernelInfo &K, const LaunchRequest &L,
                            const CompactionBuffers &B) {
  static_assert(abi::ProfileHiddenParams >= 2 && abi::ProfileHiddenParams <= 3,
                "the profile clone takes counts, branches and perhaps overflow");
  void *Hidden[3] = {B.counts(), B.branchBuckets(), B.overflow()};
  thread_local std::vector<void *> Args;
  Args.assign(L.Args, L.Args + K.Note.Params);
  for (unsigned I = 0; I < abi::ProfileHiddenParams; ++I)
    Args.push_back(&Hidden[I]);
  return driverApi()->LaunchKernel(K.ProfileClone, L.Grid.x, L.Grid.y, L.Grid.z, L.Block.x,
                                   L.Block.y, L.Block.z, unsigned(L.SharedMem),
                                   reinterpret_cast<CUstream>(L.Stream), Args.data(), nullptr);
}

void finishAtExit() {
  divopt_profile_flush();
  Profiler &P = profiler();
  std::vector<LaunchTally> Tallies;
  std::vector<ProfileStats> Rows;
  {
    std::lock_guard<std::mutex> G(P.Lock);
    for (ShapeState *St : P.Order) {
      LaunchTally T;
      T.Kernel = St->K->Name;
      T.Grid = St->Stats.Grid;
      T.Block = St->Stats.Block;
      T.Seen = St->Stats.Seen;
      T.Recorded = St->Stats.Recorded;
      Tallies.push_back(T);
      Rows.push_back(St->Stats);
    }
  }
  ProfileSink::instance().appendTally(Tallies);
  if (config().Verbose >= 1)
    printProfileSummary(Rows);
  if (!config().ProfileStats.empty())
    writeProfileStats(config().ProfileStats, Rows);
}

} // namespace

bool launchProfiled(KernelInfo &K, const LaunchRequest &L, cudaError_t &Result) {
  Profiler &P = profiler();
  Shape S = shapeOf(L.Grid, L.Block);
  std::unique_lock<std::mutex> G(P.Lock);
  ShapeState &St = shapeFor(P, K, S);
  uint64_t Index = K.Launches++;
  ++St.Stats.Seen;
  // Launch sampling: past the first DIVOPT_PROFILE_LAUNCHES, the original.
  if (!St.Usable || St.Profiled >= config().ProfileLaunches)
    return false;

  ProfileSink &Sink = ProfileSink::instance();
  if (!Sink.ready())
    return false;
  static std::once_flag AtExit;
  std::call_once(AtExit, [] { std::atexit(finishAtExit); });
  static const DeviceFacts Facts = deviceFacts();

  // A graph would replay the clone into buffers no record waits for.
  cudaStreamCaptureStatus Capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(L.Stream, &Capture) != cudaSuccess ||
      Capture != cudaStreamCaptureStatusNone) {
    cudaGetLastError();
    if (!St.CaptureWarned) {
      St.CaptureWarned = true;
      warn("not profiling " + K.Name + " " + shapeText(S) +
           " launches under stream capture; running the original");
    }
    return false;
  }

  // The feature compaction's staging area, in the same set (again after a
  // re-plan of the layout).
  profile::planFeatureStaging(St.Layout);
  DeviceSet *Set = acquireSet(P, St, G, Index);
  if (!Set)
    return false;
  const CompactionBuffers &B = Set->Buffers;
  CompactionResult *R = Set->Result;
  R->NumClasses = 0; // the GPU's compaction sets it; 0 tells the writer it did not run

  profile::queueStamp(R, profile::ProfileStart, L.Stream);
  profile::queueClear(B, L.Stream);
  // The feature clone reads the inputs before the kernel can change them.
  CUresult Features = CUDA_ERROR_NOT_FOUND;
  bool FeaturesCompacted = false;
  if (St.Features) {
    Features = launchFeatureClone(K, L, B.features());
    if (Features == CUDA_SUCCESS) {
      cudaError_t E = profile::queueFeatureCompaction(B, R, L.Stream);
      FeaturesCompacted = E == cudaSuccess;
      if (!FeaturesCompacted && !K.FeatureWarned.exchange(true))
        warn("cannot queue the feature compaction of " + K.Name + " (" + cudaGetErrorString(E) +
             "); its profile records have no feature values");
    }
  }
  profile::queueStamp(R, profile::CloneStart, L.Stream);
  CUresult Launch = launchProfileClone(K, L, B);
  if (Launch != CUDA_SUCCESS) {
    // The user's launch failed as it would have without divopt (bad
    // configuration, say): report it the way cudaLaunchKernel would.
    Set->Busy = false;
    P.Released.notify_all();
    G.unlock();
    cudaGetLastError();
    Result = cudaLaunchKernel(L.Stub, L.Grid, L.Block, L.Args, L.SharedMem, L.Stream);
    return true;
  }
  // Said only once the kernel itself launched: a launch the user configured
  // wrongly fails the clone too, and is the user's error, reported above.
  if (St.Features && Features != CUDA_SUCCESS && !K.FeatureWarned.exchange(true))
    warn("cannot launch the feature clone of " + K.Name + " (" + driverApi()->describe(Features) +
         "); its profile records have no feature values");
  profile::queueStamp(R, profile::CloneEnd, L.Stream);
  static const bool WeakHash = [] {
    const char *W = std::getenv("DIVOPT_PROFILE_TEST_WEAK_HASH");
    return W && std::string(W) == "1";
  }();
  if (cudaError_t E = profile::queueCompaction(B, R, L.Stream, WeakHash);
      E != cudaSuccess)
    warn("cannot queue the profile compaction of " + K.Name + " (" + cudaGetErrorString(E) +
         "); the launch is not recorded");
  profile::queueStamp(R, profile::CompactionEnd, L.Stream);
  cudaEventRecord(Set->Done, L.Stream);
  cudaGetLastError();
  ++St.Profiled;

  auto *Rec = new PendingRecord;
  LaunchHeader &H = Rec->Header;
  H.Kernel = K.Name;
  H.Program = programName();
  H.Device = Facts.Name;
  H.ComputeCapability = Facts.ComputeCapability;
  H.DriverVersion = Facts.Driver;
  H.UnixTime = uint64_t(std::time(nullptr));
  H.Pid = uint32_t(getpid());
  H.LaunchIndex = Index;
  H.Grid = {L.Grid.x, L.Grid.y, L.Grid.z};
  H.Block = {L.Block.x, L.Block.y, L.Block.z};
  H.NotesDigest = K.NoteDigest;
  H.Notes = K.NoteJson;
  Rec->NumBlocks = St.Stats.Blocks;
  Rec->NumBranches = St.Stats.Branches;
  Rec->NumCounters = St.Counters;
  Rec->NumFeatures = St.Features;
  Rec->FeaturesValid = St.Features && Features == CUDA_SUCCESS && FeaturesCompacted;
  Rec->Device = B;
  Rec->Result = R;
  Rec->Done = Set->Done;
  Rec->ReleaseDevice = [&P, Set] { release(P, Set); };
  ShapeState *Owner = &St;
  uint64_t Legacy = legacyRecordBytes(H, St.Stats, Rec->FeaturesValid);
  Rec->Finished = [&P, Owner, Legacy](const RecordCosts &C) {
    std::lock_guard<std::mutex> G(P.Lock);
    ProfileStats &R = Owner->Stats;
    if (C.Overflowed) {
      // The record was dropped: the next launch of the shape is profiled,
      // in wide mode, in its place.
      ++R.OverflowDropped;
      if (Owner->Profiled)
        --Owner->Profiled;
      if (!Owner->Wide) {
        Owner->Wide = true;
        CompactionLayout Wide;
        if (profile::planCompaction(R.Threads, Owner->Counters, R.Branches, Owner->Features,
                                    false, Wide)) {
          Owner->Layout = Wide;
          R.CounterBytes = std::max<uint64_t>(R.CounterBytes, Wide.counterBytes());
          R.CounterWidth = 32;
          R.ScratchBytes = std::max<uint64_t>(R.ScratchBytes, Wide.scratchBytes());
        }
      }
    }
    if (!C.Written)
      return;
    ++R.Recorded;
    R.Classes = std::max(R.Classes, C.Classes);
    R.FeatureMs += C.FeatureMs;
    R.CloneMs += C.CloneMs;
    R.CompactionMs += C.CompactionMs;
    R.CopyMs += C.CopyMs;
    R.WriteMs += C.WriteMs;
    R.RecordBytes += C.RecordBytes;
    R.LegacyRecordBytes += Legacy;
  };
  G.unlock();
  Sink.submit(Rec);
  Result = cudaSuccess;
  return true;
}

} // namespace divopt::rt

extern "C" int divopt_profile_flush(void) {
  return divopt::rt::ProfileSink::instance().flush() ? 0 : 1;
}
