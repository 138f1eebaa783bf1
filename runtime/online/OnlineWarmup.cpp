#include "online/OnlineWarmup.h"
#include "divopt/Abi.h"
#include "launch/DriverApi.h"
#include "launch/KernelRegistry.h"
#include "launch/RuntimeConfig.h"
#include "online/CostWeights.h"
#include "online/DecisionKernels.h"
#include "online/ResultPool.h"
#include "optimize/DeviceLatencyTable.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace divopt::rt::online {
namespace {

// How long the thread waits for the program's first context before it
// gives up (a program that never uses the GPU, or one slow to start).
constexpr auto ContextWait = std::chrono::seconds(60);

std::atomic<bool> Stopping{false};

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

// The device whose primary context the program has made active, -1 for
// none yet, NoDevice where there is no usable GPU.
constexpr int NoDevice = -2;
int activeDevice(const DriverApi &D) {
  int Count = 0;
  if (cudaGetDeviceCount(&Count) != cudaSuccess || Count == 0) {
    cudaGetLastError();
    return NoDevice;
  }
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

bool waitForContext(int &Device) {
  const DriverApi *D = driverApi();
  if (!D || !D->DeviceGet || !D->DevicePrimaryCtxGetState)
    return false;
  auto Deadline = std::chrono::steady_clock::now() + ContextWait;
  auto Pause = std::chrono::microseconds(100);
  while (!Stopping && std::chrono::steady_clock::now() < Deadline) {
    if ((Device = activeDevice(*D)) != -1)
      return Device >= 0;
    std::this_thread::sleep_for(Pause);
    Pause = std::min(Pause * 2, std::chrono::microseconds(2000));
  }
  return false;
}

void run() {
  int Device = -1;
  if (!waitForContext(Device) || Stopping)
    return;
  // Registered now, after the CUDA runtime's own exit handler (the program
  // has used CUDA): this one runs first, so the thread ends before CUDA does.
  std::atexit(joinAtExit);
  if (cudaSetDevice(Device) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  prepareProcess(cudaStreamPerThread);
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
    if (K.Usable && K.CostClone && K.Note.RegroupSafe && !Stopping) {
      redirectClone(K);
      costWeights(K);
    }
  }
  if (config().Verbose >= 2)
    warn(std::string("online warm-up ") + (Stopping ? "stopped at the first launch" : "done"));
}

} // namespace

void prepareProcess(cudaStream_t Stream) {
  static std::once_flag Prepared;
  std::call_once(Prepared, [&] {
    latencyTable();
    if (preloadStreamWrites() != cudaSuccess || preloadDecisionKernels(Stream) != cudaSuccess)
      cudaGetLastError(); // not fatal: the kernels load at first use instead
    registerResultPool();
  });
}

void noteLaunch() {
  if (!Stopping.load(std::memory_order_relaxed))
    Stopping.store(true, std::memory_order_relaxed);
}

} // namespace divopt::rt::online

extern "C" void __divopt_register_kernels(const divopt::abi::KernelEntry *Kernels, unsigned N) {
  using namespace divopt::rt;
  if (!config().Warmup || !onlineMode(config()) || online::Stopping)
    return;
  online::Warmup &W = online::warmup();
  std::lock_guard<std::mutex> G(W.Lock);
  W.Kernels.insert(W.Kernels.end(), Kernels, Kernels + N);
  static bool Started = false;
  if (!Started) {
    Started = true;
    W.Worker = std::thread(online::run);
    // Until the thread has seen a context, only this handler, registered
    // before the CUDA runtime's, can join it.
    std::atexit(online::joinAtExit);
  }
}
