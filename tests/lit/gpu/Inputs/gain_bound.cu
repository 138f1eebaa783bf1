// Online mode's gain bound (runtime/online/GainBound.h): a kernel whose
// threads all cost the same behind a test of their data is turned away after
// its cost clone, and a skewed kernel goes on to a decision; an elementwise
// kernel behind a bounds check, which its notes call guards only, runs as
// written from the start. Each kernel is launched LAUNCHES times, the GPU
// waited for after every launch, so that the host sees each bound before the
// shape's next launch. The outputs, dumped to OUTPUT.bin, depend on every
// launch.
#include "OutputBuffers.h"

// Every thread the same work but the last block's idle tail.
__global__ void elementwise(const float *x, float *y, unsigned n, float a) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    y[t] = y[t] * a + x[t] * (1.0f - a);
}

// The same, behind a test the pass cannot see through (every x is >= 0).
__global__ void nonNegative(const float *x, float *y, unsigned n, float a) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n && x[t] >= 0.0f)
    y[t] = y[t] * a + x[t] * (1.0f - a);
}

// One thread in eight loops 40 times as long.
__global__ void skewed(float *y, unsigned n) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  int trips = (t * 2654435761u) >> 29 == 0 ? 400 : 10;
  float v = y[t];
#pragma unroll 1
  for (int i = 0; i < trips; ++i)
    v = v * 0.999f + __sinf(v + float(i)) * 0.01f;
  y[t] = v;
}

int main(int argc, char **argv) {
  int Launches = launchCount(argc, argv);
  if (!Launches)
    return 2;
  constexpr unsigned N = (1u << 20) + 77, Block = 256;
  Buffer<float> X(N, [](size_t I) { return float(I % 1009) * 0.25f; });
  Buffer<float> Y(N, [](size_t I) { return float(I % 31); });
  Buffer<float> Z(N, [](size_t I) { return float(I % 17) * 0.1f; });
  Buffer<float> W(N, [](size_t I) { return float(I % 13); });
  for (int L = 0; L < Launches; ++L) {
    elementwise<<<(N + Block - 1) / Block, Block>>>(X.Device, Y.Device, N, 0.5f + 0.01f * L);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    nonNegative<<<(N + Block - 1) / Block, Block>>>(X.Device, W.Device, N, 0.5f + 0.01f * L);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    skewed<<<(N + Block - 1) / Block, Block>>>(Z.Device, N);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  }
  std::FILE *Out = std::fopen(argv[1], "wb");
  if (!Out) {
    std::perror(argv[1]);
    return 1;
  }
  Y.dump(Out);
  Z.dump(Out);
  W.dump(Out);
  std::fclose(Out);
  return 0;
}
