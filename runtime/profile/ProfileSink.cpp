#include "profile/ProfileSink.h"
#include "launch/RuntimeConfig.h"
#include "divopt/Runtime.h"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime_api.h>
#include <deque>
#include <mutex>
#include <sys/file.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace divopt::rt {
namespace {

double msSince(std::chrono::steady_clock::time_point T) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T).count();
}

double stampMs(const profile::CompactionResult &R, profile::Stamp From, profile::Stamp To) {
  return R.Stamps[To] > R.Stamps[From] ? double(R.Stamps[To] - R.Stamps[From]) / 1e6 : 0;
}

} // namespace

struct ProfileSink::State {
  std::mutex Lock;
  std::condition_variable Wake;
  std::deque<PendingRecord *> Queue;
  unsigned InFlight = 0; // queued or being written
  bool Opened = false, Failed = false, WriteError = false, Stop = false;
  std::FILE *File = nullptr;
  std::thread Writer;
  // The writer's own: a pinned host buffer that grows to the largest record,
  // and a stream that does not synchronize with the legacy default stream.
  void *Host = nullptr;
  size_t HostBytes = 0;
  cudaStream_t CopyStream = nullptr;

  void writeLoop();
  bool writeOne(PendingRecord &R, RecordCosts &Costs);
  bool appendLocked(const std::function<bool()> &Write, uint64_t *Bytes);
};

// Appends under an exclusive file lock, which keeps the records of
// concurrent processes whole.
bool ProfileSink::State::appendLocked(const std::function<bool()> &Write, uint64_t *Bytes) {
  flock(fileno(File), LOCK_EX);
  long Before = std::ftell(File);
  bool Ok = Write() && std::fflush(File) == 0;
  long After = std::ftell(File);
  flock(fileno(File), LOCK_UN);
  if (Bytes && Before >= 0 && After >= Before)
    *Bytes = uint64_t(After - Before);
  return Ok;
}

bool ProfileSink::State::writeOne(PendingRecord &R, RecordCosts &Costs) {
  auto Release = [&] {
    if (R.ReleaseDevice) {
      R.ReleaseDevice();
      R.ReleaseDevice = nullptr;
    }
  };
  cudaError_t E = cudaEventSynchronize(R.Done);
  if (E != cudaSuccess) {
    // The launch failed (the user's kernel faulted, say): nothing to record.
    Release();
    return true;
  }
  const profile::CompactionResult &Res = *R.Result;
  uint64_t T = R.Header.threads();
  uint32_t N = Res.NumClasses, Bits = Res.IdBits;
  uint64_t Words = Res.PackedWords;
  Costs.Classes = N;
  Costs.FeatureMs = stampMs(Res, profile::ProfileStart, profile::CloneStart);
  Costs.CloneMs = stampMs(Res, profile::CloneStart, profile::CloneEnd);
  Costs.CompactionMs = stampMs(Res, profile::CloneEnd, profile::CompactionEnd);
  if (Res.TableFull || N == 0 || Bits != classIdBits(N) || Words != packedIdWords(T, Bits)) {
    warn("profile compaction of " + R.Header.Kernel + " failed (" + std::to_string(N) +
         " classes); the launch is not recorded");
    Release();
    return true;
  }
  size_t ClassBytes = size_t(N) * R.NumCounters * 4, IdBytes = Words * 4,
         BranchBytes = size_t(2) * R.NumBranches * 8,
         FeatureBytes = R.FeaturesValid ? size_t(R.NumFeatures) * T * 8 : 0;
  size_t IdOffset = (ClassBytes + 7) / 8 * 8, BranchOffset = (IdOffset + IdBytes + 7) / 8 * 8,
         FeatureOffset = BranchOffset + BranchBytes, Total = FeatureOffset + FeatureBytes;
  auto Start = std::chrono::steady_clock::now();
  if (Total > HostBytes) {
    if (Host)
      cudaFreeHost(Host);
    Host = nullptr;
    HostBytes = 0;
    if (cudaHostAlloc(&Host, Total, cudaHostAllocDefault) != cudaSuccess) {
      cudaGetLastError();
      warn("cannot allocate " + std::to_string(Total) + " bytes of pinned memory for the record of " +
           R.Header.Kernel + "; the launch is not recorded");
      Release();
      return true;
    }
    HostBytes = Total;
  }
  char *H = static_cast<char *>(Host);
  const profile::CompactionBuffers &D = R.Device;
  if (ClassBytes)
    cudaMemcpyAsync(H, D.classes(), ClassBytes, cudaMemcpyDeviceToHost, CopyStream);
  if (IdBytes)
    cudaMemcpyAsync(H + IdOffset, D.packedIds(), IdBytes, cudaMemcpyDeviceToHost, CopyStream);
  if (BranchBytes)
    cudaMemcpyAsync(H + BranchOffset, D.branchSums(), BranchBytes, cudaMemcpyDeviceToHost,
                    CopyStream);
  if (FeatureBytes)
    cudaMemcpyAsync(H + FeatureOffset, D.features(), FeatureBytes, cudaMemcpyDeviceToHost,
                    CopyStream);
  E = cudaStreamSynchronize(CopyStream);
  Costs.CopyMs = msSince(Start);
  Release();
  if (E != cudaSuccess) {
    warn("cannot copy the profile of " + R.Header.Kernel + " (" + cudaGetErrorString(E) +
         "); the launch is not recorded");
    return true;
  }
  CompactedCounters C;
  C.NumCounters = R.NumCounters;
  C.NumClasses = N;
  C.Classes = reinterpret_cast<const uint32_t *>(H);
  C.IdBits = Bits;
  C.PackedIds = reinterpret_cast<const uint32_t *>(H + IdOffset);
  Start = std::chrono::steady_clock::now();
  bool Ok = appendLocked(
      [&] {
        return writeCompactedRecord(File, R.Header, R.NumBlocks, R.NumBranches, C,
                                    reinterpret_cast<const uint64_t *>(H + BranchOffset),
                                    FeatureBytes ? R.NumFeatures : 0,
                                    reinterpret_cast<const double *>(H + FeatureOffset));
      },
      &Costs.RecordBytes);
  Costs.WriteMs = msSince(Start);
  Costs.Written = Ok;
  return Ok;
}

void ProfileSink::State::writeLoop() {
  std::unique_lock<std::mutex> G(Lock);
  for (;;) {
    Wake.wait(G, [&] { return Stop || !Queue.empty(); });
    if (Queue.empty())
      return;
    PendingRecord *R = Queue.front();
    Queue.pop_front();
    G.unlock();
    if (!CopyStream && cudaStreamCreateWithFlags(&CopyStream, cudaStreamNonBlocking) != cudaSuccess) {
      cudaGetLastError();
      CopyStream = nullptr;
    }
    RecordCosts Costs;
    bool Ok = writeOne(*R, Costs);
    if (R->ReleaseDevice)
      R->ReleaseDevice();
    if (R->Finished)
      R->Finished(Costs);
    G.lock();
    if (!Ok && !WriteError) {
      WriteError = true;
      warn("cannot append to profile '" + config().ProfilePath + "': " + std::strerror(errno));
    }
    delete R;
    --InFlight;
    Wake.notify_all();
  }
}

ProfileSink &ProfileSink::instance() {
  static ProfileSink S;
  return S;
}

ProfileSink::State &ProfileSink::state() {
  static State *S = new State; // outlives static destructors; torn down at exit
  return *S;
}

bool ProfileSink::ready() {
  State &S = state();
  std::lock_guard<std::mutex> G(S.Lock);
  if (S.Opened || S.Failed)
    return S.Opened;
  const std::string &Path = config().ProfilePath;
  S.File = std::fopen(Path.c_str(), "ab");
  if (!S.File) {
    S.Failed = true;
    warn("cannot write profile '" + Path + "': " + std::strerror(errno) +
         "; kernels run unprofiled");
    return false;
  }
  S.Opened = true;
  S.Writer = std::thread([&S] { S.writeLoop(); });
  return true;
}

void ProfileSink::submit(PendingRecord *Record) {
  State &S = state();
  std::lock_guard<std::mutex> G(S.Lock);
  ++S.InFlight;
  S.Queue.push_back(Record);
  S.Wake.notify_all();
}

bool ProfileSink::flush() {
  State &S = state();
  {
    std::lock_guard<std::mutex> G(S.Lock);
    if (!S.Opened)
      return !S.Failed;
  }
  std::unique_lock<std::mutex> G(S.Lock);
  S.Wake.wait(G, [&] { return S.InFlight == 0; });
  return !S.WriteError;
}

bool ProfileSink::appendTally(const std::vector<LaunchTally> &Tallies) {
  State &S = state();
  std::lock_guard<std::mutex> G(S.Lock);
  if (!S.Opened || Tallies.empty())
    return !S.Failed;
  bool Ok = S.appendLocked(
      [&] { return writeTallyRecord(S.File, programName(), uint32_t(getpid()), Tallies); },
      nullptr);
  if (!Ok && !S.WriteError) {
    S.WriteError = true;
    warn("cannot append to profile '" + config().ProfilePath + "': " + std::strerror(errno));
  }
  return Ok;
}

} // namespace divopt::rt
