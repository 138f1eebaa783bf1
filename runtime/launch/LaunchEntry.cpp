// The launch entries the pass substitutes for cudaLaunchKernel, cudaLaunchKernelExC and
// cudaLaunchCooperativeKernel, and the one `divopt rewrite` substitutes for <<<...>>>
// (divopt/launch.h). Mode off forwards at once: no allocation, no synchronization,
// no lookup.
#include "divopt/Abi.h"
#include "launch/KernelRegistry.h"
#include "launch/LaunchShape.h"
#include "launch/PassThroughLaunches.h"
#include "launch/RuntimeConfig.h"
#include "launch/Warmup.h"
#include "optimize/OptimizeLaunch.h"
#include "profile/ProfileLaunch.h"

#include <cuda_runtime_api.h>

namespace divopt::rt {
namespace {

cudaError_t launch(const void *Stub, dim3 Grid, dim3 Block, void **Args, size_t SharedMem,
                   cudaStream_t Stream, const char *Name,
                   const RewrittenVariants *Rewritten = nullptr) {
  if (config().RunMode == Mode::Off)
    return cudaLaunchKernel(Stub, Grid, Block, Args, SharedMem, Stream);
  warmup::noteLaunch();
  // Online mode with the warm-up on reads a kernel's notes in the background
  // (onlineKernelInfo) and runs it as written meanwhile; profile mode must
  // profile the first launch, and a profile or model decision needs the
  // notes now.
  KernelInfo &K = onlineMode(config()) && config().Warmup ? onlineKernelInfo(Stub, Name, Rewritten)
                                                          : kernelInfo(Stub, Name, Rewritten);
  if (!K.Ready.load(std::memory_order_acquire)) {
    if (config().Verbose >= 2)
      warn(std::string("launch ") + (Name ? Name : "(rewritten)") + " " +
           shapeText(shapeOf(Grid, Block)) + ": original (its notes are being read)");
    cudaError_t Result = cudaLaunchKernel(Stub, Grid, Block, Args, SharedMem, Stream);
    ranAsWritten(K, Stream);
    return Result;
  }
  if (!K.Usable) {
    // Once per kernel: say why, then always run the original.
    if (K.Launches++ == 0)
      warn(std::string(config().RunMode == Mode::Profile ? "not profiling" : "not optimizing") +
           " kernel " + (K.Name.empty() ? std::string("(unnamed)") : K.Name) + ": " +
           K.Problem + "; running the original");
    return cudaLaunchKernel(Stub, Grid, Block, Args, SharedMem, Stream);
  }
  cudaError_t Result = cudaSuccess;
  LaunchRequest L{Stub, Grid, Block, Args, SharedMem, Stream};
  bool Profile = config().RunMode == Mode::Profile;
  bool Done = Profile ? launchProfiled(K, L, Result) : launchOptimized(K, L, Result);
  if (config().Verbose >= 2)
    warn("launch " + K.Name + " " + shapeText(shapeOf(Grid, Block)) + ": " +
         (!Done     ? std::string("original")
          : Profile ? "profile clone -> " + config().ProfilePath
                    : std::string("redirected clone")));
  return Done ? Result : cudaLaunchKernel(Stub, Grid, Block, Args, SharedMem, Stream);
}

// cudaLaunchKernelEx: like <<<>>> when its attributes allow (PassThroughLaunches.h).
cudaError_t launchEx(const cudaLaunchConfig_t *Config, const void *Stub, void **Args,
                     const char *Name) {
  if (config().RunMode == Mode::Off || !Config)
    return cudaLaunchKernelExC(Config, Stub, Args);
  if (std::string Why = passThroughReason(*Config); !Why.empty()) {
    countPassThrough(Name, Why);
    return cudaLaunchKernelExC(Config, Stub, Args);
  }
  return launch(Stub, Config->gridDim, Config->blockDim, Args, Config->dynamicSmemBytes,
                Config->stream, Name);
}

cudaError_t launchCooperative(const void *Stub, dim3 Grid, dim3 Block, void **Args,
                              size_t SharedMem, cudaStream_t Stream, const char *Name) {
  if (config().RunMode != Mode::Off)
    countPassThrough(Name, CooperativeLaunch);
  return cudaLaunchCooperativeKernel(Stub, Grid, Block, Args, SharedMem, Stream);
}

} // namespace
} // namespace divopt::rt

extern "C" {

cudaError_t __divopt_launch_kernel(const void *Stub, dim3 Grid, dim3 Block, void **Args,
                                   size_t SharedMem, cudaStream_t Stream, const char *Name) {
  return divopt::rt::launch(Stub, Grid, Block, Args, SharedMem, Stream, Name);
}

// Compiled with --default-stream per-thread: stream 0 means the calling
// thread's default stream.
cudaError_t __divopt_launch_kernel_ptsz(const void *Stub, dim3 Grid, dim3 Block, void **Args,
                                        size_t SharedMem, cudaStream_t Stream, const char *Name) {
  return divopt::rt::launch(Stub, Grid, Block, Args, SharedMem,
                            Stream ? Stream : cudaStreamPerThread, Name);
}

cudaError_t __divopt_launch_rewritten(const void *Stub, dim3 Grid, dim3 Block, void **Args,
                                      size_t SharedMem, cudaStream_t Stream,
                                      const void *Redirect, const void *Cost, const char *Notes) {
  const divopt::rt::RewrittenVariants Rewritten{Redirect, Cost, Notes};
  return divopt::rt::launch(Stub, Grid, Block, Args, SharedMem, Stream, nullptr, &Rewritten);
}

// The warm-up's list of kernels (runtime/launch/Warmup.h).
void __divopt_register_kernels(const divopt::abi::KernelEntry *Kernels, unsigned N);

void __divopt_register_rewritten(const void *Stub, const void *Redirect, const void *Cost,
                                 const char *Notes) {
  divopt::rt::registerRewritten(Stub, {Redirect, Cost, Notes});
  const divopt::abi::KernelEntry Entry{Stub, nullptr};
  __divopt_register_kernels(&Entry, 1);
}

cudaError_t __divopt_launch_kernel_ex(const cudaLaunchConfig_t *Config, const void *Stub,
                                      void **Args, const char *Name) {
  return divopt::rt::launchEx(Config, Stub, Args, Name);
}

cudaError_t __divopt_launch_kernel_ex_ptsz(const cudaLaunchConfig_t *Config, const void *Stub,
                                           void **Args, const char *Name) {
  if (!Config || Config->stream)
    return divopt::rt::launchEx(Config, Stub, Args, Name);
  cudaLaunchConfig_t PerThread = *Config;
  PerThread.stream = cudaStreamPerThread;
  return divopt::rt::launchEx(&PerThread, Stub, Args, Name);
}

cudaError_t __divopt_launch_cooperative_kernel(const void *Stub, dim3 Grid, dim3 Block,
                                               void **Args, size_t SharedMem,
                                               cudaStream_t Stream, const char *Name) {
  return divopt::rt::launchCooperative(Stub, Grid, Block, Args, SharedMem, Stream, Name);
}

cudaError_t __divopt_launch_cooperative_kernel_ptsz(const void *Stub, dim3 Grid, dim3 Block,
                                                    void **Args, size_t SharedMem,
                                                    cudaStream_t Stream, const char *Name) {
  return divopt::rt::launchCooperative(Stub, Grid, Block, Args, SharedMem,
                                       Stream ? Stream : cudaStreamPerThread, Name);
}
}
