// Two kernels from two .cu files in one program, launched on two streams
// from two host threads, several times each: every launch gets its own
// record with the right counts.
// REQUIRES: cuda-gpu
// RUN: rm -f %t.divprof
// RUN: env DIVOPT_MODE=profile DIVOPT_PROFILE_LAUNCHES=all DIVOPT_PROFILE_FILE=%t.divprof %gpubin/gpu-streams-and-units
#include "Inputs/BbvCheck.h"
#include <thread>
#include <vector>

using namespace bbvcheck;

void launchScaleByTid(float *out, int n, cudaStream_t s);

__global__ void countdown(const int *trips, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
#pragma unroll 1
  for (int i = trips[t]; i > 0; --i)
    acc += out[(t + i) & 1023];
  out[t] = acc;
}

int main() {
  const int N = 4096, Repeats = 3;
  std::vector<int> trips(N);
  for (int t = 0; t < N; ++t)
    trips[t] = (t * 7) % 11;
  int *dTrips;
  float *dA, *dB;
  CHECK(cudaMalloc(&dTrips, N * sizeof(int)));
  CHECK(cudaMalloc(&dA, N * sizeof(float)));
  CHECK(cudaMalloc(&dB, N * sizeof(float)));
  CHECK(cudaMemcpy(dTrips, trips.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dA, 0, N * sizeof(float)));
  CHECK(cudaMemset(dB, 0, N * sizeof(float)));
  cudaStream_t S1, S2;
  CHECK(cudaStreamCreateWithFlags(&S1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&S2, cudaStreamNonBlocking));
  std::thread Other([&] {
    for (int r = 0; r < Repeats; ++r)
      launchScaleByTid(dB, N - 100, S2);
  });
  for (int r = 0; r < Repeats; ++r)
    countdown<<<N / 256, 256, 0, S1>>>(dTrips, dA);
  Other.join();
  CHECK(cudaGetLastError());

  auto All = readProfile();
  auto C = launchesOf(All, "countdown");
  auto S = launchesOf(All, "scaleByTid");
  expect(C.size() == Repeats, "countdown: one record per launch");
  expect(S.size() == Repeats, "scaleByTid (second .cu): one record per launch");
  std::vector<bool> Seen(Repeats, false);
  for (const auto *P : C) {
    expect(hasBlockCounting(*P, [&](uint64_t t) { return uint32_t(trips[t]); }),
           "countdown launch " + std::to_string(P->Header.LaunchIndex) + ": body runs trips[t] times");
    if (P->Header.LaunchIndex < Repeats)
      Seen[P->Header.LaunchIndex] = true;
  }
  expect(Seen == std::vector<bool>(Repeats, true), "countdown: launch indices 0..2");
  for (const auto *P : S)
    expect(hasBlockCounting(*P, [&](uint64_t t) { return uint32_t(t < uint64_t(N - 100)); }),
           "scaleByTid: body runs on threads below n");
  return finish();
}
