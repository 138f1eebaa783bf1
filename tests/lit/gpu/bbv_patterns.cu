// Per-thread BBVs of known closed form, one kernel per pattern.
// REQUIRES: cuda-gpu
// RUN: rm -f %t.divprof
// RUN: env DIVOPT_MODE=profile DIVOPT_PROFILE_FILE=%t.divprof %gpubin/gpu-bbv-patterns
// RUN: %divopt report %t.divprof | grep -q "tripCountLoop(int const\*, float const\*, float\*, int)"
#include "Inputs/BbvCheck.h"
#include <vector>

using namespace bbvcheck;

// Loop trip count from memory (so the optimizer cannot fold the loop away).
__global__ void tripCountLoop(const int *trips, const float *data, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < trips[t]; ++i)
    acc += data[(t + i) % n];
  out[t] = acc;
}

__global__ void parityIfElse(const float *data, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t % 2 == 0)
    out[t] = data[t] * 2.0f;
  else
    out[t] = sqrtf(data[t]) + 1.0f;
}

// Threads at or past n return early; n is not a multiple of the block size.
__global__ void earlyReturn(const float *data, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  out[t] = data[t] * data[t] + 1.0f;
}

// Seed 000 Listing 2: an outer loop whose body holds an inner loop.
__global__ void nestedLoops(const int *outer, const int *inner, const float *data, float *out,
                            int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < outer[t]; ++i) {
#pragma unroll 1
    for (int j = 0; j < inner[t]; ++j)
      acc += data[(t + i * 7 + j) % n];
  }
  out[t] = acc;
}

// 2-D grid of 2-D blocks: trip count depends on both coordinates.
__global__ void grid2d(const int *trips, const float *data, float *out, int width, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int cell = y * width + x;
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < trips[cell]; ++i)
    acc += data[(cell + i) % n];
  out[cell] = acc;
}

// A switch (kept one at -O2: each case does its own work). Cases 1 and 3 go
// to one block: lanes with 1 and 3 do not diverge.
__global__ void switchCases(const int *sel, const float *data, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  switch (sel[t]) {
  case 0:
    out[t] = sqrtf(data[t]);
    break;
  case 1:
  case 3:
    out[t] = data[t] * 3.0f + out[t];
    break;
  case 2:
    out[t] = data[t] * data[t] - 1.0f;
    break;
  default:
    out[t] = expf(out[t]);
  }
}

int main() {
  const int Blocks = 8, Threads = 128, N = Blocks * Threads, Warps = N / 32;
  std::vector<int> trips(N), outer(N), inner(N);
  std::vector<float> data(N);
  for (int t = 0; t < N; ++t) {
    trips[t] = t % 32;
    outer[t] = 1 + t % 4;
    inner[t] = t % 5;
    data[t] = float(t % 13) + 0.5f;
  }
  int *dTrips, *dOuter, *dInner;
  float *dData, *dOut;
  CHECK(cudaMalloc(&dTrips, N * sizeof(int)));
  CHECK(cudaMalloc(&dOuter, N * sizeof(int)));
  CHECK(cudaMalloc(&dInner, N * sizeof(int)));
  CHECK(cudaMalloc(&dData, N * sizeof(float)));
  CHECK(cudaMalloc(&dOut, N * sizeof(float)));
  CHECK(cudaMemcpy(dTrips, trips.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dOuter, outer.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dInner, inner.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dData, data.data(), N * sizeof(float), cudaMemcpyHostToDevice));

  tripCountLoop<<<Blocks, Threads>>>(dTrips, dData, dOut, N);
  CHECK(cudaGetLastError());
  // The profiled clone must compute what the original computes.
  std::vector<float> out(N);
  CHECK(cudaMemcpy(out.data(), dOut, N * sizeof(float), cudaMemcpyDeviceToHost));
  bool Right = true;
  for (int t = 0; t < N; ++t) {
    float acc = 0;
    for (int i = 0; i < trips[t]; ++i)
      acc += data[(t + i) % N];
    Right &= out[t] == acc;
  }
  expect(Right, "tripCountLoop: profiled results equal the CPU reference");

  parityIfElse<<<Blocks, Threads>>>(dData, dOut);
  const int Live = N - 37;
  earlyReturn<<<Blocks, Threads>>>(dData, dOut, Live);
  nestedLoops<<<Blocks, Threads>>>(dOuter, dInner, dData, dOut, N);
  dim3 Grid2(4, 2), Block2(16, 8);
  const int Width = 4 * 16;
  grid2d<<<Grid2, Block2>>>(dTrips, dData, dOut, Width, N);
  // Even warps pick only 1 and 3 (one way to go), odd warps 0 to 3.
  std::vector<int> sel(N);
  for (int t = 0; t < N; ++t)
    sel[t] = (t / 32) % 2 == 0 ? 1 + 2 * (t % 2) : t % 4;
  int *dSel;
  CHECK(cudaMalloc(&dSel, N * sizeof(int)));
  CHECK(cudaMemcpy(dSel, sel.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  switchCases<<<Blocks, Threads>>>(dSel, dData, dOut);
  CHECK(cudaGetLastError());

  auto All = readProfile();
  auto L = launchesOf(All, "tripCountLoop");
  expect(L.size() == 1, "tripCountLoop: one launch recorded");
  if (L.size() == 1) {
    const auto &P = *L[0];
    expect(P.Header.threads() == uint64_t(N), "tripCountLoop: thread count");
    expect(hasBlockCounting(P, [](uint64_t) { return 1u; }), "tripCountLoop: entry runs once");
    expect(hasBlockCounting(P, [](uint64_t t) { return uint32_t(t % 32); }),
           "tripCountLoop: a block runs t % 32 times");
    // Per warp: the guard (trips > 0) diverges once (lane 0 has no trips);
    // the latch runs 31 times and diverges 30 times (one lane leaves each time).
    expect(hasBranch(P, Warps, Warps), "tripCountLoop: guard branch (W, W);" + branchList(P));
    expect(hasBranch(P, 31 * Warps, 30 * Warps),
           "tripCountLoop: latch branch (31W, 30W);" + branchList(P));
  }
  L = launchesOf(All, "parityIfElse");
  if (L.size() == 1) {
    const auto &P = *L[0];
    expect(hasBlockCounting(P, [](uint64_t t) { return uint32_t(t % 2 == 0); }),
           "parityIfElse: a block runs on even threads only");
    expect(hasBlockCounting(P, [](uint64_t t) { return uint32_t(t % 2 == 1); }),
           "parityIfElse: a block runs on odd threads only");
    expect(hasBranch(P, Warps, Warps), "parityIfElse: every warp diverges once;" + branchList(P));
  } else {
    expect(false, "parityIfElse: one launch recorded");
  }
  L = launchesOf(All, "earlyReturn");
  if (L.size() == 1) {
    const auto &P = *L[0];
    expect(hasBlockCounting(P, [&](uint64_t t) { return uint32_t(t < uint64_t(Live)); }),
           "earlyReturn: a block runs on threads below n only");
    expect(hasBlockCounting(P, [](uint64_t) { return 1u; }), "earlyReturn: entry runs on all threads");
    // Only the warp that straddles n diverges.
    expect(hasBranch(P, Warps, 1), "earlyReturn: one divergent warp;" + branchList(P));
  } else {
    expect(false, "earlyReturn: one launch recorded");
  }
  L = launchesOf(All, "nestedLoops");
  if (L.size() == 1) {
    const auto &P = *L[0];
    expect(hasBlockCounting(P, [&](uint64_t t) { return uint32_t(outer[t] * inner[t]); }),
           "nestedLoops: inner body runs outer(t) * inner(t) times");
  } else {
    expect(false, "nestedLoops: one launch recorded");
  }
  L = launchesOf(All, "grid2d");
  if (L.size() == 1) {
    const auto &P = *L[0];
    // gtid = linear block (x fastest) * threads per block + linear thread.
    auto Expected = [&](uint64_t g) {
      uint64_t PerBlock = 16 * 8, B = g / PerBlock, T = g % PerBlock;
      uint64_t X = (B % 4) * 16 + T % 16, Y = (B / 4) * 8 + T / 16;
      return uint32_t(trips[Y * Width + X]);
    };
    expect(P.Header.Grid[1] == 2 && P.Header.Block[1] == 8, "grid2d: 2-D shape recorded");
    expect(hasBlockCounting(P, Expected), "grid2d: loop body runs trips[y * width + x] times");
  } else {
    expect(false, "grid2d: one launch recorded");
  }
  L = launchesOf(All, "switchCases");
  if (L.size() == 1) {
    const auto &P = *L[0];
    expect(hasBranch(P, Warps, Warps / 2),
           "switchCases: the switch diverges in the odd warps only;" + branchList(P));
    expect(hasBlockCounting(P, [&](uint64_t t) { return uint32_t(sel[t] == 1 || sel[t] == 3); }),
           "switchCases: cases 1 and 3 share a block");
  } else {
    expect(false, "switchCases: one launch recorded");
  }
  return finish();
}
