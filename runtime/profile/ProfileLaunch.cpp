#include "profile/ProfileLaunch.h"
#include "launch/CloneLaunch.h"
#include "launch/DriverApi.h"
#include "launch/LaunchShape.h"
#include "launch/RuntimeConfig.h"
#include "profile/FeatureCompaction.h"
#include "profile/HostFeatures.h"
#include "profile/ProfileBuffers.h"
#include "profile/ProfileCompaction.h"
#include "profile/ProfileSink.h"
#include "profile/ProfileStats.h"
#include "divopt/Abi.h"
#include "divopt/Runtime.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <mutex>
#include <unistd.h>
#include <vector>

namespace divopt::rt {
namespace {

using profile::CompactionBuffers;
using profile::CompactionLayout;
using profile::CompactionResult;
using profile::DeviceSet;
using profile::Profiler;
using profile::ShapeState;
using profile::acquireSet;
using profile::profiler;
using profile::release;
using profile::shapeFor;

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

// The version-2 record this launch would have been: header (96 bytes and
// the three names), notes, B*T counts, 2K branch sums, F and F*T features.
uint64_t legacyRecordBytes(const LaunchHeader &H, const ProfileStats &R, bool Features) {
  uint64_t T = H.threads();
  return 96 + H.Kernel.size() + H.Program.size() + H.Device.size() + 4 + H.Notes.size() +
         uint64_t(R.Blocks) * T * 4 + 16 * uint64_t(R.Branches) + 4 +
         (Features ? uint64_t(R.Features) * T * 8 : 0);
}

// The profile clone with its hidden parameters (divopt/Abi.h): counts,
// branch buckets, the overflow list (narrow mode) or null (wide mode: counts
// over 65534 in the u32 array after the u16 slots), and the per-thread
// hashes.
CUresult launchProfileClone(const KernelInfo &K, const LaunchRequest &L,
                            const CompactionBuffers &B) {
  static_assert(abi::ProfileHiddenParams == 4,
                "the profile clone takes counts, branches, overflow and hashes");
  void *Hidden[4] = {B.counts(), B.branchBuckets(), B.overflow(), B.hashes()};
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
  if (St.Features && St.FeaturesOnHost) {
    profile::hostFeatureColumns(K.Note, L.Args, St.Stats.Threads, profile::featureResults(R));
    Features = CUDA_SUCCESS;
    FeaturesCompacted = true;
  } else if (St.Features) {
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
  H.Layout = LayoutPackedCounterClasses; // the classes' vectors as the GPU packed them
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
        if (profile::planCompaction(R.Threads, Owner->Counters, R.Branches,
                                    Owner->BucketThreads, Owner->deviceFeatures(), false,
                                    Wide)) {
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
    R.CopiedBytes += C.CopiedBytes;
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
