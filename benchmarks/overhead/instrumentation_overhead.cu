// Instrumentation overhead: the same divergent kernel launched in the mode
// DIVOPT_MODE gives (off or profile), timed with CUDA events around each
// launch after warm-up. In profile mode the time includes everything a
// profiled launch adds on the GPU: counter allocation, zeroing, the clone,
// and the copy back. Run it once per mode (benchmarks/overhead/run.sh).
//
//   instrumentation_overhead [threads=1048576] [repeats=30]
// Prints one line: mode threads blocks median_ms min_ms max_ms counter_bytes
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "divopt/CudaCheck.h"


__device__ unsigned mix(unsigned v) {
  v ^= v >> 16;
  v *= 0x7feb352du;
  v ^= v >> 15;
  return v;
}

// Geometric-ish trip counts and data-dependent branches inside the loop:
// warps diverge both in how long they loop and in what each iteration does.
__global__ void divergentWork(const unsigned *seed, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  unsigned v = seed[t];
  unsigned trips = 1 + __clz(mix(v) | 1) * 4;
  float acc = 0.0f;
#pragma unroll 1
  for (unsigned i = 0; i < trips; ++i) {
    v = mix(v + i);
    if (v & 1)
      acc += __sinf(float(v & 1023));
    else
      acc -= float(v % 7);
    if (v & 2) {
      if (v & 4)
        acc *= 0.999f;
      else
        acc += sqrtf(float(v & 255));
    }
    switch ((v >> 3) & 3) {
    case 0: acc += 1.0f; break;
    case 1: acc -= 0.5f; break;
    case 2: acc = fmaxf(acc, 0.0f); break;
    default: acc *= 1.0001f; break;
    }
    if (acc > 1e6f)
      break;
  }
  out[t] = acc;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
  int repeats = argc > 2 ? std::atoi(argv[2]) : 30;
  const char *mode = std::getenv("DIVOPT_MODE");
  std::vector<unsigned> seed(n);
  for (int i = 0; i < n; ++i)
    seed[i] = 2654435761u * unsigned(i + 1);
  unsigned *dSeed;
  float *dOut;
  CHECK(cudaMalloc(&dSeed, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dOut, n * sizeof(float)));
  CHECK(cudaMemcpy(dSeed, seed.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  int block = 256, grid = (n + block - 1) / block;
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int w = 0; w < 3; ++w)
    divergentWork<<<grid, block>>>(dSeed, dOut, n);
  CHECK(cudaDeviceSynchronize());
  std::vector<float> ms;
  for (int r = 0; r < repeats; ++r) {
    CHECK(cudaEventRecord(start));
    divergentWork<<<grid, block>>>(dSeed, dOut, n);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float t;
    CHECK(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  CHECK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  std::printf("%s threads=%d grid=%d median_ms=%.4f min_ms=%.4f max_ms=%.4f\n",
              mode && *mode ? mode : "off", n, grid, ms[ms.size() / 2], ms.front(), ms.back());
  return 0;
}
