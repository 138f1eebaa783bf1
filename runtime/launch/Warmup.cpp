#include "launch/Warmup.h"
#include "divopt/Abi.h"
#include "launch/DriverApi.h"
#include "launch/KernelRegistry.h"
#include "launch/RuntimeConfig.h"
#include "online/CostWeights.h"
#include "online/OnlineProcess.h"
#include "profile/FeatureCompaction.h"
#include "profile/ProfileCompaction.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace divopt::rt::warmup {
namespace {

// How long the thread waits for the program's first context before it
// gives up (a program that never uses the GPU, or one slow to start).
constexpr auto ContextWait = std::chrono::seconds(60);

std::atomic<bool> Stopping{false};
// When the program first launched (steady clock, ns), for DIVOPT_VERBOSE=2.
std::atomic<int64_t> FirstLaunchNs{0};

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Warmup {
  std::mutex Lock; // guards Kernels and Worker
  std::vector<abi::KernelEntry> Kernels;
  std::thread Worker;
};

// Never destroyed: the exit handlers below join the thread before the
// statics it uses go.
Warmup &warmup() {
  static auto *W = new Warmup;
  return *W;
}

void joinAtExit() {
  Stopping = true;
  std::thread Worker;
  {
    Warmup &W = warmup();
    std::lock_guard<std::mutex> G(W.Lock); // the thread takes it too: join outside
    Worker = std::move(W.Worker);
  }
  if (Worker.joinable())
    Worker.join();
}

// The device whose primary context the program has made active, or -1.
int activeDevice(const DriverApi &D, int Count) {
  for (int Ordinal = 0; Ordinal < Count; ++Ordinal) {
    CUdevice Device = 0;
    unsigned Flags = 0;
    int Active = 0;
    if (D.DeviceGet(&Device, Ordinal) == CUDA_SUCCESS &&
        D.DevicePrimaryCtxGetState(Device, &Flags, &Active) == CUDA_SUCCESS && Active)
      return Ordinal;
  }
  return -1;
}

bool waitForContext(int Count, int &Device) {
  const DriverApi *D = driverApi();
  if (!D || !D->DeviceGet || !D->DevicePrimaryCtxGetState)
    return false;
  auto Deadline = std::chrono::steady_clock::now() + ContextWait;
  auto Pause = std::chrono::microseconds(100);
  while (!Stopping && std::chrono::steady_clock::now() < Deadline) {
    if ((Device = activeDevice(*D, Count)) >= 0)
      return true;
    std::this_thread::sleep_for(Pause);
    Pause = std::min(Pause * 2, std::chrono::microseconds(2000));
  }
  return false;
}

// What the thread did, for DIVOPT_VERBOSE=2: each step's end, in ms since
// the thread started.
class Timeline {
  std::chrono::steady_clock::time_point Start = std::chrono::steady_clock::now();
  std::string Text;

public:
  void step(const std::string &What) {
    char At[32];
    std::snprintf(At, sizeof At, " %.3f ms", std::chrono::duration<double, std::milli>(
                                                   std::chrono::steady_clock::now() - Start)
                                                   .count());
    Text += (Text.empty() ? "" : ", ") + What + At;
  }
  ~Timeline() {
    if (config().Verbose < 2)
      return;
    if (int64_t Launch = FirstLaunchNs.load()) {
      char At[64];
      std::snprintf(At, sizeof At, "; the first launch came at %.3f ms",
                    (Launch - std::chrono::duration_cast<std::chrono::nanoseconds>(
                                  Start.time_since_epoch())
                                  .count()) /
                        1e6);
      Text += At;
    }
    warn(std::string(config().RunMode == Mode::Profile ? "profile" : "online") + " warm-up: " +
         Text + (Stopping ? "; stopped" : "; done"));
  }
};

// The device the program will use, its primary context current on this
// thread: with one GPU, the context made now, while the program starts
// (its own first CUDA call then finds it ready); with several, the one the
// program makes current first.
bool programDevice(int &Device) {
  int Count = 0;
  if (cudaGetDeviceCount(&Count) != cudaSuccess || Count == 0) {
    cudaGetLastError();
    return false;
  }
  Device = 0;
  if (Count > 1 && !waitForContext(Count, Device))
    return false;
  if (cudaSetDevice(Device) != cudaSuccess) { // makes the context (CUDA 12)
    cudaGetLastError();
    return false;
  }
  return !Stopping;
}

void run() {
  Timeline T;
  int Device = -1;
  if (!programDevice(Device)) {
    T.step("no context");
    return;
  }
  // Registered now, after the CUDA runtime's own exit handler: this one
  // runs first, so the thread ends before CUDA does.
  std::atexit(joinAtExit);
  T.step("context on device " + std::to_string(Device));
  if (config().RunMode == Mode::Profile) {
    if (profile::preloadCompactionKernels(cudaStreamPerThread) != cudaSuccess ||
        profile::preloadFeatureKernels() != cudaSuccess)
      cudaGetLastError(); // not fatal: the kernels load at first use instead
  } else {
    online::prepareProcess(cudaStreamPerThread);
  }
  T.step("process");
  for (size_t I = 0; !Stopping; ++I) {
    abi::KernelEntry E;
    {
      Warmup &W = warmup();
      std::lock_guard<std::mutex> G(W.Lock);
      if (I >= W.Kernels.size())
        break;
      E = W.Kernels[I];
    }
    KernelInfo &K = kernelInfo(E.Stub, E.Name);
    if (K.Usable && K.Note.RegroupSafe && costClone(K) && !Stopping) {
      redirectClone(K);
      online::costWeights(K);
    }
    // A rewritten kernel registers without a name; its notes have it.
    T.step(K.Name.empty() ? "(unnamed)" : K.Name);
  }
}

} // namespace

void noteLaunch() {
  if (Stopping.load(std::memory_order_relaxed))
    return;
  Stopping.store(true, std::memory_order_relaxed);
  int64_t Unset = 0;
  FirstLaunchNs.compare_exchange_strong(Unset, nowNs());
}

} // namespace divopt::rt::warmup

extern "C" void __divopt_register_kernels(const divopt::abi::KernelEntry *Kernels, unsigned N) {
  using namespace divopt::rt;
  const RuntimeConfig &C = config();
  if (!C.Warmup || !(onlineMode(C) || C.RunMode == Mode::Profile) || warmup::Stopping)
    return;
  warmup::Warmup &W = warmup::warmup();
  std::lock_guard<std::mutex> G(W.Lock);
  W.Kernels.insert(W.Kernels.end(), Kernels, Kernels + N);
  static bool Started = false;
  if (!Started) {
    Started = true;
    W.Worker = std::thread(warmup::run);
    // Until the thread has seen a context, only this handler, registered
    // before the CUDA runtime's, can join it.
    std::atexit(warmup::joinAtExit);
  }
}
