// Online mode on a program of many short kernels that do not diverge (but
// for the bounds check of the last warp), as most of a real program's
// kernels are: 32 distinct elementwise kernels over 1M floats, each launched
// `rounds` times in turn. Whatever online mode spends deciding on them is
// pure overhead.
//
//   many_kernels [rounds=20] [items=1048576]
// Prints one JSON line: the launch loop's wall time (first launch to a
// cudaDeviceSynchronize after the last), the program's (from the start of
// main to after the results are copied back) and a checksum of the results
// (the same in every DIVOPT_MODE).
#include "divopt/CudaCheck.h"
#include "ProgramTiming.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

using bench_online::digestOf;
using bench_online::msSince;

namespace {

constexpr unsigned BlockThreads = 256;

template <int K> __global__ void axpbK(const float *X, float *Y, unsigned N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Y[I] = Y[I] * (1.0f - 1.0f / (K + 2)) + X[I] * float(K + 1) * 0.001f;
}

template <int... Ks>
void launchAll(std::integer_sequence<int, Ks...>, const float *X, float *Y, unsigned N) {
  unsigned Grid = (N + BlockThreads - 1) / BlockThreads;
  ((axpbK<Ks><<<Grid, BlockThreads>>>(X, Y, N)), ...);
}

} // namespace

int main(int argc, char **argv) {
  auto ProgramStart = std::chrono::steady_clock::now();
  if (argc > 1 && argv[1][0] == '-') {
    std::fprintf(stderr, "usage: many_kernels [rounds=20] [items=1048576]\n");
    return 2;
  }
  int Rounds = argc > 1 ? std::atoi(argv[1]) : 20;
  long Items = argc > 2 ? std::atol(argv[2]) : 1 << 20;
  if (Rounds <= 0 || Items <= 0 || Items > (1l << 30)) {
    std::fprintf(stderr, "many_kernels: rounds must be positive and items in 1..2^30\n");
    return 2;
  }
  unsigned N = unsigned(Items);
  std::vector<float> Host(N);
  for (unsigned I = 0; I < N; ++I)
    Host[I] = float(I % 977) * 0.01f;
  float *X, *Y;
  CHECK(cudaMalloc(&X, N * sizeof(float)));
  CHECK(cudaMalloc(&Y, N * sizeof(float)));
  CHECK(cudaMemcpy(X, Host.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(Y, 0, N * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  auto LoopStart = std::chrono::steady_clock::now();
  for (int R = 0; R < Rounds; ++R)
    launchAll(std::make_integer_sequence<int, 32>{}, X, Y, N);
  CHECK(cudaDeviceSynchronize());
  double LoopMs = msSince(LoopStart);
  CHECK(cudaGetLastError());

  CHECK(cudaMemcpy(Host.data(), Y, N * sizeof(float), cudaMemcpyDeviceToHost));
  double ProgramMs = msSince(ProgramStart);
  const char *Mode = std::getenv("DIVOPT_MODE");
  std::printf("{\"program\":\"many_kernels\",\"mode\":\"%s\",\"rounds\":%d,\"items\":%u,"
              "\"loop_ms\":%.3f,\"program_ms\":%.3f,\"checksum\":\"%016llx\"}\n",
              Mode && *Mode ? Mode : "off", Rounds, N, LoopMs, ProgramMs,
              digestOf(Host));
  return 0;
}
