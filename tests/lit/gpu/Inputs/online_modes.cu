// Online mode under the launch patterns of real programs: one kernel
// launched many times, a shape change, two streams, two host threads and
// CUDA graph capture. Every launch adds to its threads' outputs, so the file
// written to argv[1] depends on every launch; online.test compares it byte
// for byte with a run in mode off.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
#include "divopt/CudaCheck.h"

// One thread in 32 works 100x longer (double precision, a helper function): a warp runs as long as its slowest
// lane, so gathering the long threads pays.
__device__ int tripsFor(unsigned t) {
  unsigned h = t * 2654435761u;
  return (h >> 27) == 0 ? 1000 : 10;
}

__device__ double wave(double x, int i) { return sqrt(x * x + i) * 0.5 + 1.0 / (1.0 + x * x); }

__global__ void skewed(double *out, unsigned n, int salt) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  double acc = t * 1e-3 + salt;
  int trips = tripsFor(t);
#pragma unroll 1
  for (int i = 0; i < trips; ++i)
    acc = acc * 0.999 + wave(acc, i);
  out[t] += acc;
}

namespace {

constexpr unsigned N = 1 << 20;

void launchMany(double *out, unsigned n, unsigned block, cudaStream_t s, int count, int salt) {
  for (int i = 0; i < count; ++i)
    skewed<<<(n + block - 1) / block, block, 0, s>>>(out, n, salt + i);
  CHECK(cudaGetLastError());
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT\n", argv[0]);
    return 2;
  }
  const int Buffers = 6;
  double *out[Buffers];
  for (double *&o : out) {
    CHECK(cudaMalloc(&o, N * sizeof(double)));
    CHECK(cudaMemset(o, 0, N * sizeof(double)));
  }
  // 1. Repeated launches, queued without a wait, then a shape change
  // (another block size, a partial last block).
  launchMany(out[0], N, 256, 0, 40, 0);
  launchMany(out[1], N - 1000, 96, 0, 40, 1);

  // 2. Two streams taking turns on one kernel and shape.
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  for (int i = 0; i < 30; ++i) {
    launchMany(out[2], N, 128, s1, 1, i);
    launchMany(out[3], N, 128, s2, 1, i);
  }

  // 3. Two host threads, each with its stream, on the first shape.
  std::thread a([&] { launchMany(out[4], N, 256, s1, 30, 7); });
  std::thread b([&] { launchMany(out[5], N, 256, s2, 30, 9); });
  a.join();
  b.join();
  CHECK(cudaDeviceSynchronize());

  // 4. Graph capture of a shape whose verdict is in: the graph replays it.
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  launchMany(out[0], N, 256, s1, 3, 100);
  CHECK(cudaStreamEndCapture(s1, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int i = 0; i < 5; ++i)
    CHECK(cudaGraphLaunch(exec, s1));
  // Later decisions (DIVOPT_REFRESH) must leave the graph's D alone.
  launchMany(out[0], N, 256, s1, 20, 200);
  for (int i = 0; i < 3; ++i)
    CHECK(cudaGraphLaunch(exec, s1));
  CHECK(cudaDeviceSynchronize());

  std::vector<double> host(N);
  std::FILE *f = std::fopen(argv[1], "wb");
  if (!f) {
    std::perror(argv[1]);
    return 1;
  }
  for (double *o : out) {
    CHECK(cudaMemcpy(host.data(), o, N * sizeof(double), cudaMemcpyDeviceToHost));
    std::fwrite(host.data(), sizeof(double), N, f);
  }
  std::fclose(f);
  std::printf("online_modes: wrote %d buffers\n", Buffers);
  return 0;
}
