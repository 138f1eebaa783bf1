// The demo program: a kernel whose threads loop different numbers of times.
//
// Each thread follows the Collatz sequence of its own starting value and
// counts the steps to reach 1, then takes one of two paths by parity of that
// count. Neighbouring threads need very different step counts, so every warp
// waits for its slowest thread: the divergence `divopt report` shows.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void collatzSteps(const unsigned long long *start, unsigned *steps,
                             float *score, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned long long x = start[i];
  unsigned count = 0;
  while (x != 1) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++count;
  }
  steps[i] = count;
  if (count & 1)
    score[i] = sqrtf(float(count)) * 0.5f;
  else
    score[i] = float(count) / 3.0f + 1.0f;
}

static unsigned hostSteps(unsigned long long x) {
  unsigned count = 0;
  while (x != 1) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++count;
  }
  return count;
}

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e = (call);                                                    \
    if (e != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      return 1;                                                                \
    }                                                                          \
  } while (0)

// divergent [threads=32768] [launches=1]: with several launches, prints the
// median kernel time (CUDA events), which `divopt demo` compares across modes.
int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1 << 15;
  int launches = argc > 2 ? std::atoi(argv[2]) : 1;
  if (n < 1 || launches < 1) {
    std::fprintf(stderr, "usage: %s [threads >= 1] [launches >= 1]\n", argv[0]);
    return 2;
  }
  std::vector<unsigned long long> start(n);
  for (int i = 0; i < n; ++i)
    start[i] = 1 + i;
  unsigned long long *dStart;
  unsigned *dSteps;
  float *dScore;
  CHECK(cudaMalloc(&dStart, n * sizeof *dStart));
  CHECK(cudaMalloc(&dSteps, n * sizeof *dSteps));
  CHECK(cudaMalloc(&dScore, n * sizeof *dScore));
  CHECK(cudaMemcpy(dStart, start.data(), n * sizeof *dStart, cudaMemcpyHostToDevice));
  int block = 256;
  std::vector<float> ms;
  cudaEvent_t begin, end;
  CHECK(cudaEventCreate(&begin));
  CHECK(cudaEventCreate(&end));
  for (int l = 0; l < launches; ++l) {
    CHECK(cudaEventRecord(begin));
    collatzSteps<<<(n + block - 1) / block, block>>>(dStart, dSteps, dScore, n);
    CHECK(cudaEventRecord(end));
    CHECK(cudaEventSynchronize(end));
    float t;
    CHECK(cudaEventElapsedTime(&t, begin, end));
    ms.push_back(t);
  }
  CHECK(cudaGetLastError());
  std::vector<unsigned> steps(n);
  CHECK(cudaMemcpy(steps.data(), dSteps, n * sizeof *dSteps, cudaMemcpyDeviceToHost));
  unsigned longest = 0;
  for (int i = 0; i < n; ++i) {
    if (steps[i] != hostSteps(start[i])) {
      std::fprintf(stderr, "wrong result for thread %d: %u, expected %u\n", i, steps[i],
                   hostSteps(start[i]));
      return 1;
    }
    longest = steps[i] > longest ? steps[i] : longest;
  }
  std::printf("collatz: %d threads, results verified, longest sequence %u steps\n", n, longest);
  if (launches > 1) {
    // The first launch may carry one-time costs (module load, regrouping plan).
    std::sort(ms.begin() + 1, ms.end());
    std::printf("kernel time: median %.4f ms over %d launches after the first (first %.3f ms)\n",
                ms[1 + (ms.size() - 1) / 2], launches - 1, ms[0]);
  }
  return 0;
}
