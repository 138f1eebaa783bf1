// The kernel of the consumer projects: each thread counts the Collatz steps
// of its own start value, so neighbouring threads loop very different numbers
// of times and every warp waits for its slowest lane (divergent, regroupable).
#include "steps.h"

#include <cuda_runtime.h>

#include <cstdio>

__global__ void stepsToOne(const unsigned *start, int *steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned long long x = start[i];
  int count = 0;
  while (x != 1) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++count;
  }
  steps[i] = count;
}

int runStepsToOne(const std::vector<unsigned> &Start, std::vector<int> &Steps) {
  int N = static_cast<int>(Start.size());
  unsigned *DStart = nullptr;
  int *DSteps = nullptr;
  if (cudaMalloc(&DStart, N * sizeof(unsigned)) != cudaSuccess ||
      cudaMalloc(&DSteps, N * sizeof(int)) != cudaSuccess) {
    std::fprintf(stderr, "app: no usable GPU\n");
    return 1;
  }
  cudaMemcpy(DStart, Start.data(), N * sizeof(unsigned), cudaMemcpyHostToDevice);
  stepsToOne<<<(N + 127) / 128, 128>>>(DStart, DSteps, N);
  Steps.resize(N);
  cudaError_t E = cudaMemcpy(Steps.data(), DSteps, N * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(DStart);
  cudaFree(DSteps);
  return E == cudaSuccess ? 0 : 1;
}
