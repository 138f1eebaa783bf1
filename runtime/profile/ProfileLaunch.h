// Profile mode: launch a kernel's feature clone (when it has one) and its
// profile clone, and record the feature values and counters.
#pragma once
#include "launch/KernelRegistry.h"
#include <cuda_runtime_api.h>

namespace divopt::rt {

struct LaunchRequest {
  const void *Stub;
  dim3 Grid, Block;
  void **Args;
  size_t SharedMem;
  cudaStream_t Stream;
};

// Everything stays in stream order: counters are allocated, zeroed, filled,
// copied back and freed on the launch's own stream, and the record is handed
// to the writer by a host callback. Returns false (nothing launched) when
// profiling this launch is impossible; the caller then runs the original.
bool launchProfiled(KernelInfo &K, const LaunchRequest &L, cudaError_t &Result);

} // namespace divopt::rt
