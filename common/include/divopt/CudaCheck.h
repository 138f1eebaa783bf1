// For divopt's own CUDA programs (GPU tests, benchmarks): stop at the first
// failing CUDA call, saying where and why. An exit code of 0 must mean every
// call succeeded.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                      \
  do {                                                                                   \
    cudaError_t e_ = (call);                                                             \
    if (e_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));   \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)
