// A skewed loop whose trip counts come from the input: one thread in ten runs
// 2000 iterations, the others 10, at places a seed chooses. model-regroup.test
// profiles it on one seed, fits a BBV model, and regroups another seed's
// launches from predicted BBVs. The first three launches read the same trip
// counts, the fourth reversed ones. Writes every output to argv[2] so runs
// can be compared byte for byte.
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
#include "divopt/CudaCheck.h"

__global__ void skewedLoop(const int *trips, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  float acc = t * 0.25f;
  // __sinf, not sinf: sinf's range reduction branches on acc, a value the
  // loop computes, which would leave those blocks unpredictable.
#pragma unroll 1
  for (int i = 0; i < trips[t]; ++i)
    acc = acc * 0.999f + __sinf(acc + i);
  out[t] = acc;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s SEED OUTPUT.bin\n", argv[0]);
    return 2;
  }
  const int N = 64 * 256, Launches = 4;
  std::mt19937 Rng(std::atoi(argv[1]));
  std::vector<int> Trips(N);
  for (int &T : Trips)
    T = Rng() % 10 == 0 ? 2000 : 10;
  int *DTrips = nullptr;
  float *DOut = nullptr;
  CHECK(cudaMalloc(&DTrips, N * sizeof(int)));
  CHECK(cudaMalloc(&DOut, Launches * N * sizeof(float)));
  CHECK(cudaMemcpy(DTrips, Trips.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  for (int L = 0; L < Launches; ++L) {
    if (L == 3) {
      std::vector<int> Reversed(Trips.rbegin(), Trips.rend());
      CHECK(cudaMemcpy(DTrips, Reversed.data(), N * sizeof(int), cudaMemcpyHostToDevice));
    }
    skewedLoop<<<N / 256, 256>>>(DTrips, DOut + L * N, N);
  }
  CHECK(cudaGetLastError());
  std::vector<float> Out(Launches * N);
  CHECK(cudaMemcpy(Out.data(), DOut, Out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  std::FILE *F = std::fopen(argv[2], "wb");
  if (!F || std::fwrite(Out.data(), sizeof(float), Out.size(), F) != Out.size()) {
    std::fprintf(stderr, "cannot write %s\n", argv[2]);
    return 1;
  }
  std::fclose(F);
  return 0;
}
