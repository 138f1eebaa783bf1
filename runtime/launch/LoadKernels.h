// Loads the modules of the given kernels now. CUDA loads a kernel lazily, at
// its first launch; the runtime's warm-up thread (launch/Warmup.h) calls this
// so that a program's first profiled launch or first decision does not pay
// for it inside its timed work. Header-only: the .cu files that own the
// kernels (built by nvcc) name them.
#pragma once
#include <cuda_runtime_api.h>

namespace divopt::rt {

template <typename... Kernels> cudaError_t loadKernels(Kernels *...K) {
  cudaFuncAttributes A;
  for (const void *F : {reinterpret_cast<const void *>(K)...})
    if (cudaError_t E = cudaFuncGetAttributes(&A, F); E != cudaSuccess)
      return E;
  return cudaSuccess;
}

} // namespace divopt::rt
