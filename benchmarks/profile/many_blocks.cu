// Profiling at scale (issue 14): one launch of a kernel with more than 100
// basic blocks over 20M threads, the shape that needed 9 GB of counters and
// wrote 38 GB of profile in 45 s before profiles were compacted.
//
// Each thread runs 40 stages; in each, a hash of its class key picks one of
// three paths (a loop of 1 to 4 sincos steps, a square root, or nothing), so
// a thread's BBV is a function of its key and the launch has at most
// `classes` distinct BBVs (every thread distinct with classes = threads).
//
//   many_blocks [threads=20000000] [classes=200000] [launches=1]
// Prints one JSON line: threads, classes, blocks of 256 threads, the wall
// time of the launches from the first to a cudaDeviceSynchronize (every
// profiling overhead on the GPU included), each launch's CUDA-event time, and
// a checksum of the output (the same in every DIVOPT_MODE).
#include "divopt/CudaCheck.h"
#include "divopt/Digest.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

__device__ unsigned mix(unsigned V) {
  V ^= V >> 16;
  V *= 0x7feb352du;
  V ^= V >> 15;
  V *= 0x846ca68bu;
  V ^= V >> 16;
  return V;
}

template <int K> __device__ __forceinline__ float stage(unsigned Key, float Acc) {
  unsigned Bits = mix(Key * 0x9e3779b9u + K);
  if (Bits & 1) {
#pragma unroll 1
    for (unsigned I = 0; I <= ((Bits >> 1) & 3); ++I)
      Acc = __sinf(Acc + float(I)) * 1.0001f + __cosf(Acc * 0.5f);
  } else if (Bits & 8) {
    Acc = sqrtf(fabsf(Acc) + float(K));
  }
  return Acc;
}

template <int K> __device__ __forceinline__ float stages(unsigned Key, float Acc) {
  if constexpr (K == 40)
    return Acc;
  else
    return stages<K + 1>(Key, stage<K>(Key, Acc));
}

__global__ void manyBlocks(unsigned Threads, unsigned Classes, float *Out) {
  unsigned T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= Threads)
    return;
  unsigned Key = mix(T) % Classes;
  Out[T] = stages<0>(Key, float(Key & 1023) * 0.001f);
}


} // namespace

int main(int argc, char **argv) {
  if (argc > 1 && (argv[1][0] == '-')) {
    std::fprintf(stderr, "usage: many_blocks [threads=20000000] [classes=200000] [launches=1]\n");
    return 2;
  }
  unsigned Threads = argc > 1 ? unsigned(std::strtoul(argv[1], nullptr, 10)) : 20000000u;
  unsigned Classes = argc > 2 ? unsigned(std::strtoul(argv[2], nullptr, 10)) : 200000u;
  int Launches = argc > 3 ? std::atoi(argv[3]) : 1;
  if (Threads == 0 || Classes == 0 || Launches <= 0) {
    std::fprintf(stderr, "many_blocks: threads, classes and launches must be positive\n");
    return 2;
  }
  float *Out;
  CHECK(cudaMalloc(&Out, size_t(Threads) * sizeof(float)));
  unsigned Block = 256, Grid = (Threads + Block - 1) / Block;
  std::vector<cudaEvent_t> Events(2 * Launches);
  for (cudaEvent_t &E : Events)
    CHECK(cudaEventCreate(&E));
  CHECK(cudaDeviceSynchronize());

  auto Start = std::chrono::steady_clock::now();
  for (int L = 0; L < Launches; ++L) {
    CHECK(cudaEventRecord(Events[2 * L]));
    manyBlocks<<<Grid, Block>>>(Threads, Classes, Out);
    CHECK(cudaEventRecord(Events[2 * L + 1]));
  }
  CHECK(cudaDeviceSynchronize());
  double WallMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
  CHECK(cudaGetLastError());

  std::vector<float> Host(Threads);
  CHECK(cudaMemcpy(Host.data(), Out, Host.size() * sizeof(float), cudaMemcpyDeviceToHost));
  const char *Mode = std::getenv("DIVOPT_MODE");
  std::printf("{\"program\":\"many_blocks\",\"mode\":\"%s\",\"threads\":%u,\"classes\":%u,"
              "\"grid\":%u,\"launches\":%d,\"wall_ms\":%.4f,\"times_ms\":[",
              Mode && *Mode ? Mode : "off", Threads, Classes, Grid, Launches, WallMs);
  for (int L = 0; L < Launches; ++L) {
    float Ms;
    CHECK(cudaEventElapsedTime(&Ms, Events[2 * L], Events[2 * L + 1]));
    std::printf("%s%.4f", L ? "," : "", Ms);
  }
  std::printf("],\"checksum\":\"%016llx\"}\n",
              (unsigned long long)divopt::fnv1a64(
                  std::string_view(reinterpret_cast<const char *>(Host.data()), Host.size() * sizeof(float))));
  return 0;
}
