// Online mode on a kernel whose launch shape changes from launch to launch,
// as it does where a grid is sized to a frontier, a batch or a worklist:
// each launch processes the first n_i items of an array, with a grid of
// ceil(n_i / 256) blocks. Per item, a loop of 8 steps, or `heavy` (256) for
// one item in 8 (set by a hash of the item), so warps diverge and
// regrouping pays where a shape comes back.
//
//   varying_shapes [launches=200] [distinct=0] [heavy=256]
// distinct = 0: every launch a new grid (800 to 15,800 blocks of 256
// threads); distinct = K: K grids, launched in turn. heavy = 25600 makes
// launches of milliseconds, whose later shapes pay for a decision at once.
// Prints one JSON line: the launch loop's wall time (first launch to a
// cudaDeviceSynchronize after the last), the program's (from the start of
// main, the CUDA context included, to after the results are copied back)
// and a checksum of the results (the same in every DIVOPT_MODE).
#include "divopt/CudaCheck.h"
#include "ProgramTiming.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

using bench_online::digestOf;
using bench_online::msSince;

namespace {

constexpr unsigned BlockThreads = 256, MinBlocks = 800, BlockRange = 15000;

__device__ unsigned hashItem(unsigned V) {
  V ^= V >> 16;
  V *= 0x7feb352du;
  V ^= V >> 15;
  V *= 0x846ca68bu;
  return V ^ (V >> 16);
}

__device__ float relax(float X, unsigned Steps) {
  for (unsigned I = 0; I < Steps; ++I)
    X = X * 0.999f + __sinf(X + float(I)) * 0.01f;
  return X;
}

__global__ void processItems(const float *In, float *Out, unsigned N, unsigned Heavy) {
  unsigned T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= N)
    return;
  unsigned Steps = hashItem(T) % 8 == 0 ? Heavy : 8;
  Out[T] = relax(In[T], Steps) + Out[T] * 0.5f;
}

// Launch L's item count: distinct grids for 15,000 launches (37 is prime to
// BlockRange), or Distinct of them in turn.
unsigned itemsOf(int L, int Distinct) {
  unsigned K = Distinct > 0 ? unsigned(L % Distinct) : unsigned(L);
  return (MinBlocks + (K * 37u) % BlockRange) * BlockThreads - K % 97;
}

} // namespace

int main(int argc, char **argv) {
  auto ProgramStart = std::chrono::steady_clock::now();
  if (argc > 1 && argv[1][0] == '-') {
    std::fprintf(stderr, "usage: varying_shapes [launches=200] [distinct=0] [heavy=256]\n");
    return 2;
  }
  int Launches = argc > 1 ? std::atoi(argv[1]) : 200;
  int Distinct = argc > 2 ? std::atoi(argv[2]) : 0;
  int Heavy = argc > 3 ? std::atoi(argv[3]) : 256;
  if (Launches <= 0 || Distinct < 0 || Heavy <= 0) {
    std::fprintf(stderr, "varying_shapes: launches and heavy must be positive and distinct at "
                         "least 0\n");
    return 2;
  }
  const unsigned MaxItems = (MinBlocks + BlockRange) * BlockThreads;
  std::vector<float> Host(MaxItems);
  for (unsigned I = 0; I < MaxItems; ++I)
    Host[I] = float(I % 1000) * 0.001f;
  float *In, *Out;
  CHECK(cudaMalloc(&In, MaxItems * sizeof(float)));
  CHECK(cudaMalloc(&Out, MaxItems * sizeof(float)));
  CHECK(cudaMemcpy(In, Host.data(), MaxItems * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(Out, 0, MaxItems * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  auto LoopStart = std::chrono::steady_clock::now();
  for (int L = 0; L < Launches; ++L) {
    unsigned N = itemsOf(L, Distinct);
    processItems<<<(N + BlockThreads - 1) / BlockThreads, BlockThreads>>>(In, Out, N,
                                                                          unsigned(Heavy));
  }
  CHECK(cudaDeviceSynchronize());
  double LoopMs = msSince(LoopStart);
  CHECK(cudaGetLastError());

  CHECK(cudaMemcpy(Host.data(), Out, MaxItems * sizeof(float), cudaMemcpyDeviceToHost));
  double ProgramMs = msSince(ProgramStart);
  const char *Mode = std::getenv("DIVOPT_MODE");
  std::printf("{\"program\":\"varying_shapes\",\"mode\":\"%s\",\"launches\":%d,\"distinct\":%d,"
              "\"heavy\":%d,\"loop_ms\":%.3f,\"program_ms\":%.3f,\"checksum\":\"%016llx\"}\n",
              Mode && *Mode ? Mode : "off", Launches, Distinct, Heavy, LoopMs, ProgramMs,
              digestOf(Host));
  return 0;
}
