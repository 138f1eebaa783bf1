#include "profile/ProfileSink.h"
#include "profile/FeatureCompaction.h"
#include "launch/RuntimeConfig.h"
#include "divopt/Runtime.h"

#include <algorithm>
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

// Two threads: the copier waits for each launch's event, copies the
// compacted record into a pinned host buffer and hands the device buffers
// back at once; the writer compresses and appends it. A slow write (zstd)
// then holds a host buffer, never the GPU's.
struct ProfileSink::State {
  struct HostBuffer {
    void *Host = nullptr;
    size_t Capacity = 0;
  };
  // A record copied to the host, waiting for the writer.
  struct Copied {
    PendingRecord *R = nullptr;
    HostBuffer Buffer;
    bool Skip = false; // nothing to write (the launch failed, say)
    size_t IdOffset = 0, BranchOffset = 0, FeatureOffset = 0;
    uint32_t ClassBits = 32; // bits a value of the classes' vectors as copied
    bool WithFeatures = false;
    // The feature columns as the GPU encoded them; Data is an offset into
    // the buffer until the writer resolves it.
    std::vector<FeatureColumn> Columns;
    RecordCosts Costs;
  };
  static constexpr size_t MaxHostBuffers = 4;

  std::mutex Lock;
  std::condition_variable Wake;
  std::deque<PendingRecord *> Queue;   // waiting for the copier
  std::deque<Copied> Written;          // waiting for the writer
  std::vector<HostBuffer> FreeBuffers;
  size_t HostBuffers = 0;              // allocated, free or in use
  unsigned InFlight = 0; // submitted and not yet written
  bool Opened = false, Failed = false, WriteError = false;
  std::FILE *File = nullptr;
  std::thread Copier, Writer;
  cudaStream_t CopyStream = nullptr; // does not synchronize with the legacy default stream

  void copyLoop();
  void writeLoop();
  void copyOne(PendingRecord &R, Copied &Out);
  bool hostBuffer(size_t Bytes, HostBuffer &Out);
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

// A pinned buffer of at least Bytes: a free one (regrown if too small), a
// new one while fewer than MaxHostBuffers exist, else the next the writer
// hands back.
bool ProfileSink::State::hostBuffer(size_t Bytes, HostBuffer &Out) {
  std::unique_lock<std::mutex> G(Lock);
  Wake.wait(G, [&] { return !FreeBuffers.empty() || HostBuffers < MaxHostBuffers; });
  if (!FreeBuffers.empty()) {
    auto Best = std::max_element(FreeBuffers.begin(), FreeBuffers.end(),
                                 [](const HostBuffer &A, const HostBuffer &B) {
                                   return A.Capacity < B.Capacity;
                                 });
    Out = *Best;
    FreeBuffers.erase(Best);
  } else {
    Out = HostBuffer{};
    ++HostBuffers;
  }
  G.unlock();
  if (Out.Capacity >= Bytes)
    return true;
  if (Out.Host)
    cudaFreeHost(Out.Host);
  Out = HostBuffer{};
  if (cudaHostAlloc(&Out.Host, Bytes, cudaHostAllocDefault) != cudaSuccess) {
    cudaGetLastError();
    Out = HostBuffer{};
    return false;
  }
  Out.Capacity = Bytes;
  return true;
}

void ProfileSink::State::copyOne(PendingRecord &R, Copied &Out) {
  Out.R = &R;
  Out.Skip = true;
  auto Release = [&] {
    if (R.ReleaseDevice) {
      R.ReleaseDevice();
      R.ReleaseDevice = nullptr;
    }
  };
  if (cudaEventSynchronize(R.Done) != cudaSuccess) {
    // The launch failed (the user's kernel faulted, say): nothing to record.
    cudaGetLastError();
    Release();
    return;
  }
  const profile::CompactionResult &Res = *R.Result;
  uint64_t T = R.Header.threads();
  uint32_t N = Res.NumClasses, Bits = Res.IdBits;
  uint64_t Words = Res.PackedWords;
  RecordCosts &Costs = Out.Costs;
  Costs.Classes = N;
  Costs.FeatureMs = stampMs(Res, profile::ProfileStart, profile::CloneStart);
  Costs.CloneMs = stampMs(Res, profile::CloneStart, profile::CloneEnd);
  Costs.CompactionMs = stampMs(Res, profile::CloneEnd, profile::CompactionEnd);
  if (Res.Overflowed > Res.OverflowCapacity) {
    const LaunchHeader &H = R.Header;
    warn("dropping the profile record of launch " + std::to_string(H.LaunchIndex) + " of " +
         H.Kernel + " <<<" + std::to_string(H.Grid[0]) + "x" + std::to_string(H.Grid[1]) + "x" +
         std::to_string(H.Grid[2]) + ", " + std::to_string(H.Block[0]) + "x" +
         std::to_string(H.Block[1]) + "x" + std::to_string(H.Block[2]) + ">>>: " +
         std::to_string(Res.Overflowed) + " counts are over 65534, more than the " +
         "16-bit counters' overflow list holds (" + std::to_string(Res.OverflowCapacity) +
         "); the next launch of this shape is profiled with 32-bit counters");
    Costs.Overflowed = Res.Overflowed;
    Release();
    return;
  }
  if (Res.TableFull || N == 0 || Bits != classIdBits(N) || Words != packedIdWords(T, Bits)) {
    warn("profile compaction of " + R.Header.Kernel + " failed (" + std::to_string(N) +
         " classes); the launch is not recorded");
    Release();
    return;
  }
  // The vectors at the bits the GPU packed them to, written so (layout
  // LayoutPackedCounterClasses).
  Out.ClassBits = Res.ClassBits >= 1 && Res.ClassBits <= 16 ? Res.ClassBits : 32;
  size_t ClassBytes = packedIdWords(uint64_t(N) * R.NumCounters, Out.ClassBits) * 4,
         IdBytes = Words * 4, BranchBytes = size_t(2) * R.NumBranches * 8, FeatureBytes = 0;
  Out.IdOffset = (ClassBytes + 7) / 8 * 8;
  Out.BranchOffset = (Out.IdOffset + IdBytes + 7) / 8 * 8;
  Out.FeatureOffset = Out.BranchOffset + BranchBytes;
  // Each column in the encoding the GPU chose (FeatureCompaction.h), its
  // data 8-byte aligned after the branch sums.
  const profile::FeatureColumnResult *Encoded = profile::featureResults(R.Result);
  Out.WithFeatures = R.FeaturesValid;
  for (uint32_t F = 0; Out.WithFeatures && F < R.NumFeatures; ++F)
    if (Encoded[F].Encoding >= NumFeatureEncodings ||
        Encoded[F].Bytes != featureColumnBytes(Encoded[F].Encoding, T)) {
      warn("the feature compaction of " + R.Header.Kernel +
           " did not finish; the record has no feature values");
      Out.WithFeatures = false;
    }
  Out.Columns.clear();
  for (uint32_t F = 0; Out.WithFeatures && F < R.NumFeatures; ++F) {
    FeatureColumn Col;
    Col.Encoding = Encoded[F].Encoding;
    Col.Constant = Encoded[F].Constant;
    Col.Data = reinterpret_cast<const void *>(uintptr_t(Out.FeatureOffset + FeatureBytes));
    if (Col.Encoding != FeatureConstant)
      FeatureBytes += (Encoded[F].Bytes + 7) / 8 * 8;
    Out.Columns.push_back(Col);
  }
  size_t Total = Out.FeatureOffset + FeatureBytes;
  if (!hostBuffer(Total, Out.Buffer)) {
    warn("cannot allocate " + std::to_string(Total) + " bytes of pinned memory for the record of " +
         R.Header.Kernel + "; the launch is not recorded");
    Release();
    std::lock_guard<std::mutex> G(Lock);
    --HostBuffers;
    Wake.notify_all();
    Out.Buffer = HostBuffer{};
    return;
  }
  // The transfer alone: a pinned buffer is allocated once and reused.
  auto Start = std::chrono::steady_clock::now();
  char *H = static_cast<char *>(Out.Buffer.Host);
  const profile::CompactionBuffers &D = R.Device;
  if (ClassBytes)
    cudaMemcpyAsync(H, D.copiedClasses(Out.ClassBits), ClassBytes, cudaMemcpyDeviceToHost,
                    CopyStream);
  if (IdBytes)
    cudaMemcpyAsync(H + Out.IdOffset, D.packedIds(), IdBytes, cudaMemcpyDeviceToHost, CopyStream);
  if (BranchBytes)
    cudaMemcpyAsync(H + Out.BranchOffset, D.branchSums(), BranchBytes, cudaMemcpyDeviceToHost,
                    CopyStream);
  for (uint32_t F = 0; F < Out.Columns.size(); ++F)
    if (const void *Src = profile::featureColumnData(D, F, Out.Columns[F].Encoding))
      cudaMemcpyAsync(H + uintptr_t(Out.Columns[F].Data), Src,
                      featureColumnBytes(Out.Columns[F].Encoding, T), cudaMemcpyDeviceToHost,
                      CopyStream);
  cudaError_t E = cudaStreamSynchronize(CopyStream);
  Costs.CopyMs = msSince(Start);
  Costs.CopiedBytes = Total;
  Release();
  if (E != cudaSuccess) {
    cudaGetLastError();
    warn("cannot copy the profile of " + R.Header.Kernel + " (" + cudaGetErrorString(E) +
         "); the launch is not recorded");
    return;
  }
  Out.Skip = false;
}

void ProfileSink::State::copyLoop() {
  if (cudaStreamCreateWithFlags(&CopyStream, cudaStreamNonBlocking) != cudaSuccess) {
    cudaGetLastError();
    CopyStream = nullptr;
  }
  std::unique_lock<std::mutex> G(Lock);
  for (;;) {
    Wake.wait(G, [&] { return !Queue.empty(); });
    PendingRecord *R = Queue.front();
    Queue.pop_front();
    G.unlock();
    Copied C;
    copyOne(*R, C);
    G.lock();
    Written.push_back(C);
    Wake.notify_all();
  }
}

void ProfileSink::State::writeLoop() {
  std::unique_lock<std::mutex> G(Lock);
  for (;;) {
    Wake.wait(G, [&] { return !Written.empty(); });
    Copied C = Written.front();
    Written.pop_front();
    G.unlock();
    PendingRecord &R = *C.R;
    bool Ok = true;
    if (!C.Skip) {
      char *H = static_cast<char *>(C.Buffer.Host);
      CompactedCounters Counters;
      Counters.NumCounters = R.NumCounters;
      Counters.NumClasses = C.Costs.Classes;
      Counters.Classes = reinterpret_cast<const uint32_t *>(H);
      Counters.IdBits = classIdBits(C.Costs.Classes);
      Counters.PackedIds = reinterpret_cast<const uint32_t *>(H + C.IdOffset);
      Counters.ValueBits = C.ClassBits;
      for (FeatureColumn &Col : C.Columns)
        Col.Data = H + uintptr_t(Col.Data);
      auto Start = std::chrono::steady_clock::now();
      Ok = appendLocked(
          [&] {
            return writeCompactedRecord(File, R.Header, R.NumBlocks, R.NumBranches, Counters,
                                        reinterpret_cast<const uint64_t *>(H + C.BranchOffset),
                                        C.WithFeatures ? R.NumFeatures : 0,
                                        C.Columns.data());
          },
          &C.Costs.RecordBytes);
      C.Costs.WriteMs = msSince(Start);
      C.Costs.Written = Ok;
    }
    if (R.Finished)
      R.Finished(C.Costs);
    G.lock();
    if (C.Buffer.Host)
      FreeBuffers.push_back(C.Buffer);
    if (!Ok && !WriteError) {
      WriteError = true;
      warn("cannot append to profile '" + config().ProfilePath + "': " + std::strerror(errno));
    }
    delete C.R;
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
  S.Copier = std::thread([&S] { S.copyLoop(); });
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
