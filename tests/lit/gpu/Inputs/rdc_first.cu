// -fgpu-rdc with kernels in two translation units (rdc.test; the other is
// rdc_second.cu), built with --offload-new-driver as clang needs for
// relocatable device code. rdcLoop (here) and rdcImage (there) are
// regrouped; rdcCrossCall calls a device function defined in the other unit,
// which this unit's device module has no body for: it is refused and runs
// the original. Every output goes to argv[1].
#include <cstdio>
#include <vector>
#include "divopt/CudaCheck.h"

extern __device__ float scaleFromSecond(float x);
void launchSecond(float *img, int w, int h);

__global__ void rdcLoop(const int *trips, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  float acc = t * 0.5f;
#pragma unroll 1
  for (int i = 0; i < trips[t]; ++i)
    acc = acc * 0.999f + sinf(acc + i);
  out[t] = acc;
}

__global__ void rdcCrossCall(float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = scaleFromSecond(float(t));
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT.bin\n", argv[0]);
    return 2;
  }
  const int N = 6 * 128 - 11, W = 45, H = 21;
  std::vector<int> trips(N);
  for (int i = 0; i < N; ++i)
    trips[i] = (i * 7919) % 53;
  int *dTrips;
  float *dOut;
  const size_t Floats = 2 * N + W * H;
  CHECK(cudaMalloc(&dTrips, N * sizeof(int)));
  CHECK(cudaMalloc(&dOut, Floats * sizeof(float)));
  CHECK(cudaMemset(dOut, 0xff, Floats * sizeof(float)));
  CHECK(cudaMemcpy(dTrips, trips.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  rdcLoop<<<6, 128>>>(dTrips, dOut, N);
  rdcCrossCall<<<6, 128>>>(dOut + N, N);
  launchSecond(dOut + 2 * N, W, H);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<float> Out(Floats);
  CHECK(cudaMemcpy(Out.data(), dOut, Floats * sizeof(float), cudaMemcpyDeviceToHost));
  std::FILE *F = std::fopen(argv[1], "wb");
  if (!F) {
    std::perror(argv[1]);
    return 1;
  }
  std::fwrite(Out.data(), sizeof(float), Out.size(), F);
  std::fclose(F);
  std::printf("wrote %s\n", argv[1]);
  return 0;
}
