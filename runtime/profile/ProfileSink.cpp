#include "profile/ProfileSink.h"
#include "launch/RuntimeConfig.h"
#include "divopt/Runtime.h"

#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime_api.h>
#include <deque>
#include <mutex>
#include <sys/file.h>
#include <thread>
#include <vector>

namespace divopt::rt {

struct ProfileSink::State {
  std::mutex Lock;
  std::condition_variable Wake;
  std::deque<PendingRecord *> Queue;
  std::vector<CounterBuffer> FreeBuffers;
  unsigned InFlight = 0; // queued or being written
  bool Opened = false, Failed = false, WriteError = false, Stop = false;
  std::FILE *File = nullptr;
  std::thread Writer;

  void writeLoop();
};

void ProfileSink::State::writeLoop() {
  std::unique_lock<std::mutex> G(Lock);
  for (;;) {
    Wake.wait(G, [&] { return Stop || !Queue.empty(); });
    if (Queue.empty())
      return;
    PendingRecord *R = Queue.front();
    Queue.pop_front();
    G.unlock();
    // Laid out as PendingRecord says; the record holds the branch counters'
    // sums over buckets.
    const char *Host = static_cast<const char *>(R->Buffer.Host);
    auto *Features = reinterpret_cast<const double *>(Host);
    auto *Counts = reinterpret_cast<const uint32_t *>(Host + R->countOffset());
    auto *Buckets = reinterpret_cast<const uint64_t *>(Host + R->branchOffset());
    std::vector<uint64_t> Branches(2 * size_t(R->NumBranches), 0);
    for (uint64_t B = 0; B < R->branchBuckets(); ++B)
      for (size_t I = 0; I < Branches.size(); ++I)
        Branches[I] += Buckets[B * Branches.size() + I];
    // An exclusive lock keeps records of concurrent processes whole.
    flock(fileno(File), LOCK_EX);
    bool Ok = writeLaunchRecord(File, R->Header, R->NumBlocks, R->NumBranches, Counts,
                                Branches.data(), R->FeaturesValid ? R->NumFeatures : 0,
                                Features) &&
              std::fflush(File) == 0;
    flock(fileno(File), LOCK_UN);
    G.lock();
    if (!Ok && !WriteError) {
      WriteError = true;
      warn("cannot append to profile '" + config().ProfilePath + "': " + std::strerror(errno));
    }
    FreeBuffers.push_back(R->Buffer);
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
  std::atexit([] { divopt_profile_flush(); });
  return true;
}

CounterBuffer ProfileSink::acquire(size_t Bytes) {
  State &S = state();
  {
    std::lock_guard<std::mutex> G(S.Lock);
    for (size_t I = 0; I < S.FreeBuffers.size(); ++I)
      if (S.FreeBuffers[I].Capacity >= Bytes) {
        CounterBuffer B = S.FreeBuffers[I];
        S.FreeBuffers.erase(S.FreeBuffers.begin() + I);
        return B;
      }
  }
  CounterBuffer B;
  if (cudaHostAlloc(&B.Host, Bytes, cudaHostAllocDefault) != cudaSuccess)
    return CounterBuffer{};
  B.Capacity = Bytes;
  return B;
}

void ProfileSink::release(CounterBuffer Buffer) {
  State &S = state();
  std::lock_guard<std::mutex> G(S.Lock);
  S.FreeBuffers.push_back(Buffer);
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
  // Host callbacks of launches already issued fire once the device is done.
  cudaDeviceSynchronize();
  std::unique_lock<std::mutex> G(S.Lock);
  S.Wake.wait(G, [&] { return S.InFlight == 0; });
  return !S.WriteError;
}

} // namespace divopt::rt

extern "C" int divopt_profile_flush(void) {
  return divopt::rt::ProfileSink::instance().flush() ? 0 : 1;
}
