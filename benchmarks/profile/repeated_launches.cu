// Default profiling of a program that launches one kernel many times
// (issue 14): a time-stepping loop, as simulations are written, of a
// double-precision kernel that calls a device function, with data-dependent
// trip counts. Under DIVOPT_MODE=profile only the first launch of a kernel
// and shape is recorded by default (DIVOPT_PROFILE_LAUNCHES), so the program
// should run about as fast as with profiling off.
//
//   repeated_launches [launches=1000] [threads=1048576]
// Prints one JSON line: the loop's wall time (first launch to a
// cudaDeviceSynchronize after the last) and the program's, from the start of
// main (CUDA context creation included) to after the results are copied
// back, and a checksum of the result (the same in every DIVOPT_MODE).
#include "divopt/CudaCheck.h"
#include "divopt/Digest.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// A damped oscillator step per iteration: double math in a device function.
__device__ double relax(double X, double V, int Steps) {
  for (int I = 0; I < Steps; ++I) {
    double A = -0.25 * X - 0.01 * V + 1e-3 * sin(X);
    V += 0.05 * A;
    X += 0.05 * V;
  }
  return X + V;
}

__global__ void timeStep(const int *Steps, double *State, unsigned N) {
  unsigned T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= N)
    return;
  State[T] = relax(State[T], 0.5, Steps[T]);
}


} // namespace

int main(int argc, char **argv) {
  auto ProgramStart = std::chrono::steady_clock::now();
  if (argc > 1 && argv[1][0] == '-') {
    std::fprintf(stderr, "usage: repeated_launches [launches=1000] [threads=1048576]\n");
    return 2;
  }
  int Launches = argc > 1 ? std::atoi(argv[1]) : 1000;
  unsigned N = argc > 2 ? unsigned(std::strtoul(argv[2], nullptr, 10)) : 1u << 20;
  if (Launches <= 0 || N == 0) {
    std::fprintf(stderr, "repeated_launches: launches and threads must be positive\n");
    return 2;
  }
  // Geometric-ish step counts (1 to 64): warps loop as long as their
  // longest thread.
  std::vector<int> Steps(N);
  std::vector<double> State(N);
  uint32_t S = 12345;
  for (unsigned I = 0; I < N; ++I) {
    S = S * 1664525u + 1013904223u;
    Steps[I] = 1 + int(__builtin_clz((S >> 8) | 1u) - 8) * 4 % 64;
    State[I] = double(I % 1000) * 1e-3;
  }
  int *DSteps;
  double *DState;
  CHECK(cudaMalloc(&DSteps, N * sizeof(int)));
  CHECK(cudaMalloc(&DState, N * sizeof(double)));
  CHECK(cudaMemcpy(DSteps, Steps.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(DState, State.data(), N * sizeof(double), cudaMemcpyHostToDevice));

  unsigned Block = 256, Grid = (N + Block - 1) / Block;
  auto LoopStart = std::chrono::steady_clock::now();
  for (int L = 0; L < Launches; ++L)
    timeStep<<<Grid, Block>>>(DSteps, DState, N);
  CHECK(cudaDeviceSynchronize());
  auto LoopEnd = std::chrono::steady_clock::now();
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(State.data(), DState, N * sizeof(double), cudaMemcpyDeviceToHost));
  auto ProgramEnd = std::chrono::steady_clock::now();

  using Ms = std::chrono::duration<double, std::milli>;
  const char *Mode = std::getenv("DIVOPT_MODE");
  std::printf("{\"program\":\"repeated_launches\",\"mode\":\"%s\",\"threads\":%u,\"launches\":%d,"
              "\"loop_ms\":%.3f,\"program_ms\":%.3f,\"checksum\":\"%016llx\"}\n",
              Mode && *Mode ? Mode : "off", N, Launches, Ms(LoopEnd - LoopStart).count(),
              Ms(ProgramEnd - ProgramStart).count(),
              (unsigned long long)divopt::fnv1a64(
                  std::string_view(reinterpret_cast<const char *>(State.data()), N * sizeof(double))));
  return 0;
}
