// Kernels launched through every launch API (issue 15; launch-apis.test):
// cudaLaunchKernelEx without attributes, on the default stream and on one of
// its own (profiled and regrouped like <<<>>>), with thread-block cluster
// dimensions and with the cooperative
// attribute (both run as they are, with a message), and
// cudaLaunchCooperativeKernel (runs as it is, counted). Every output goes to
// argv[1], so runs compare byte for byte.
#include <cstdio>
#include <vector>
#include "divopt/CudaCheck.h"

__device__ __forceinline__ float work(const int *trips, int t) {
  float acc = t * 0.25f;
#pragma unroll 1
  for (int i = 0; i < trips[t]; ++i)
    acc = acc * 0.999f + sinf(acc + i);
  return acc;
}
__global__ void exPlain(const int *trips, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = work(trips, t);
}
__global__ void exCluster(const int *trips, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = work(trips, t) + 1.0f;
}
__global__ void exCooperative(const int *trips, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = work(trips, t) + 2.0f;
}
__global__ void cooperative(const int *trips, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = work(trips, t) + 3.0f;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT.bin\n", argv[0]);
    return 2;
  }
  const int Blocks = 8, Threads = 256, N = Blocks * Threads;
  std::vector<int> trips(N);
  for (int i = 0; i < N; ++i)
    trips[i] = (i * 7919) % 61;
  int *dTrips;
  float *dOut;
  CHECK(cudaMalloc(&dTrips, N * sizeof(int)));
  CHECK(cudaMalloc(&dOut, 5 * N * sizeof(float)));
  CHECK(cudaMemset(dOut, 0xff, 5 * N * sizeof(float)));
  CHECK(cudaMemcpy(dTrips, trips.data(), N * sizeof(int), cudaMemcpyHostToDevice));

  cudaLaunchConfig_t Config = {};
  Config.gridDim = dim3(Blocks);
  Config.blockDim = dim3(Threads);
  CHECK(cudaLaunchKernelEx(&Config, exPlain, (const int *)dTrips, dOut));
  cudaStream_t Stream;
  CHECK(cudaStreamCreate(&Stream));
  Config.stream = Stream;
  CHECK(cudaLaunchKernelEx(&Config, exPlain, (const int *)dTrips, dOut + N));
  CHECK(cudaStreamSynchronize(Stream));
  Config.stream = 0;

  cudaLaunchAttribute Cluster;
  Cluster.id = cudaLaunchAttributeClusterDimension;
  Cluster.val.clusterDim.x = 2;
  Cluster.val.clusterDim.y = 1;
  Cluster.val.clusterDim.z = 1;
  Config.attrs = &Cluster;
  Config.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&Config, exCluster, (const int *)dTrips, dOut + 2 * N));

  cudaLaunchAttribute Coop;
  Coop.id = cudaLaunchAttributeCooperative;
  Coop.val.cooperative = 1;
  Config.attrs = &Coop;
  CHECK(cudaLaunchKernelEx(&Config, exCooperative, (const int *)dTrips, dOut + 3 * N));

  const int *TripsArg = dTrips;
  float *OutArg = dOut + 4 * N;
  void *Args[] = {&TripsArg, &OutArg};
  CHECK(cudaLaunchCooperativeKernel((const void *)cooperative, dim3(Blocks), dim3(Threads), Args,
                                    0, 0));
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<float> Out(5 * N);
  CHECK(cudaMemcpy(Out.data(), dOut, Out.size() * sizeof(float), cudaMemcpyDeviceToHost));
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
