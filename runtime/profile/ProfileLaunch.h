// Profile mode: launch a kernel's feature clone (when it has one) and its
// profile clone, compact the counters on the GPU and record them.
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

// Launch sampling: only the first DIVOPT_PROFILE_LAUNCHES launches of each
// kernel and launch shape are profiled; for the others this is one hash-map
// lookup, and it returns false. A profiled launch queues, on the launch's
// own stream, the clones into pooled device buffers (per kernel and shape,
// within DIVOPT_PROFILE_MEMORY), the compaction (ProfileCompaction.h) and an
// event; the writer thread (ProfileSink.h) waits for the event and copies
// and writes the record, so the host never waits unless every buffer set
// the budget allows is still being written. Returns false (nothing
// launched) when the launch is not profiled; the caller then runs the
// original.
bool launchProfiled(KernelInfo &K, const LaunchRequest &L, cudaError_t &Result);

} // namespace divopt::rt
