#include "launch/BackgroundResolver.h"
#include "online/CostWeights.h"

#include <condition_variable>
#include <cstdlib>
#include <cuda_runtime_api.h>
#include <deque>
#include <mutex>
#include <thread>

namespace divopt::rt {
namespace {

struct Request {
  const void *Stub;
  const char *Name;
  RewrittenVariants Variants; // a copy: the launch's are on its stack
  bool Rewritten;
  int Device;
};

struct Resolver {
  std::mutex Lock;
  std::condition_variable Wake;
  std::deque<Request> Queue;
  bool Stopping = false;
  std::thread Worker;
};

// Never destroyed: the exit handler joins the thread before the statics it
// uses go.
Resolver &resolver() {
  static auto *R = new Resolver;
  return *R;
}

void work() {
  Resolver &R = resolver();
  int Current = -1;
  for (;;) {
    Request Next;
    {
      std::unique_lock<std::mutex> G(R.Lock);
      R.Wake.wait(G, [&] { return R.Stopping || !R.Queue.empty(); });
      if (R.Stopping)
        return;
      Next = R.Queue.front();
      R.Queue.pop_front();
    }
    if (Next.Device != Current && cudaSetDevice(Next.Device) != cudaSuccess) {
      cudaGetLastError();
      Current = -1;
    } else {
      Current = Next.Device;
    }
    KernelInfo &K = kernelInfo(Next.Stub, Next.Name, Next.Rewritten ? &Next.Variants : nullptr);
    if (K.Usable && K.Note.RegroupSafe)
      online::costWeights(K); // its first decision prices nothing
  }
}

// Registered at the first request, a launch: after the CUDA runtime's own
// exit handler, so this one runs first and the thread ends before CUDA does.
// A request still queued is dropped: its kernel never ran online.
void stopAtExit() {
  Resolver &R = resolver();
  std::thread Worker;
  {
    std::lock_guard<std::mutex> G(R.Lock);
    R.Stopping = true;
    Worker = std::move(R.Worker);
  }
  R.Wake.notify_all();
  if (Worker.joinable())
    Worker.join();
}

} // namespace

void resolveInBackground(const void *Stub, const char *Name, const RewrittenVariants *Rewritten) {
  int Device = 0;
  if (cudaGetDevice(&Device) != cudaSuccess)
    cudaGetLastError();
  Resolver &R = resolver();
  {
    std::lock_guard<std::mutex> G(R.Lock);
    if (R.Stopping)
      return;
    R.Queue.push_back({Stub, Name, Rewritten ? *Rewritten : RewrittenVariants{}, Rewritten != nullptr,
                       Device});
    if (!R.Worker.joinable()) {
      R.Worker = std::thread(work);
      std::atexit(stopAtExit);
    }
  }
  R.Wake.notify_one();
}

} // namespace divopt::rt
