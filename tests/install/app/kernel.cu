// The kernel of the consumer projects: thread i loops i % 32 + 1 times, so
// every warp waits for its slowest lane (divergent, and regroupable).
#include "spread.h"

#include <cuda_runtime.h>

#include <cstdio>

__global__ void spread(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int sum = 0;
  for (int k = 0; k <= i % 32; ++k)
    sum += in[i] * k;
  out[i] = sum;
}

int runSpread(const std::vector<int> &In, std::vector<int> &Out) {
  int N = static_cast<int>(In.size());
  int *DIn = nullptr, *DOut = nullptr;
  if (cudaMalloc(&DIn, N * sizeof(int)) != cudaSuccess ||
      cudaMalloc(&DOut, N * sizeof(int)) != cudaSuccess) {
    std::fprintf(stderr, "app: no usable GPU\n");
    return 1;
  }
  cudaMemcpy(DIn, In.data(), N * sizeof(int), cudaMemcpyHostToDevice);
  spread<<<(N + 127) / 128, 128>>>(DIn, DOut, N);
  Out.resize(N);
  cudaError_t E = cudaMemcpy(Out.data(), DOut, N * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(DIn);
  cudaFree(DOut);
  return E == cudaSuccess ? 0 : 1;
}
