// Kernels whose work is in device functions they call (issue 15), run with
// and without regrouping; every output buffer goes to the file named by
// argv[1] so runs can be compared byte for byte (regroup-calls.test). Each
// accepted pattern of tests/lit/redirect/calls.cu: a __noinline__ helper with
// a data-dependent loop, double pow/sin/cos (CUDA's out-of-line internals,
// with arguments large enough for sin's slow path), a template helper at two
// types, helpers reading threadIdx and blockIdx (x and y, in a 2-D grid with
// partial blocks), recursion that reads threadIdx at its leaves. One kernel
// with shared memory is refused and calls a helper the redirected kernels
// share: it runs unchanged, calling the original.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "OutputBuffers.h"

__device__ __noinline__ float weightedSum(const float *p, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s = s * 0.999f + p[i] * float(i);
  return s;
}
__global__ void loopHelper(const float *p, float *out, const int *trips, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = weightedSum(p + t % 64, trips[t]);
}

__global__ void doubleMath(const double *in, double *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = pow(in[t], 1.7) + sin(in[t] * 1e9) + cos(in[t] * 3e7);
}

template <typename T> __device__ __noinline__ T polynomial(T x, int degree) {
  T acc = 0;
  for (int i = 0; i < degree; ++i)
    acc = acc * x + T(i + 1);
  return acc;
}
__global__ void templateHelper(const float *in, float *outF, double *outD, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    outF[t] = polynomial(in[t], t % 23);
    outD[t] = polynomial(double(in[t]), t % 11);
  }
}

__device__ __noinline__ unsigned globalX() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __noinline__ unsigned globalY() { return blockIdx.y * blockDim.y + threadIdx.y; }
__device__ __noinline__ unsigned mix(unsigned x) {
  return (x * 2654435761u) ^ (globalX() << 3) ^ (blockIdx.y << 20) ^ (threadIdx.y << 12);
}
__global__ void idHelpers(unsigned *out, int w, int h) {
  unsigned x = globalX(), y = globalY();
  if (x < unsigned(w) && y < unsigned(h))
    out[y * w + x] = mix(y) + (y % 3 ? globalX() : blockIdx.x);
}

__device__ __noinline__ unsigned splits(unsigned x) {
  if (x <= 1)
    return threadIdx.x % 5 + blockIdx.x;
  return splits(x / 2) + splits(x / 3) + 1;
}
__global__ void recursion(const unsigned *in, unsigned *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = splits(in[t] % 300);
}

// Refused (shared memory): runs the original, which calls globalX itself.
__global__ void sharedNeighbours(unsigned *out) {
  __shared__ unsigned tile[128];
  tile[threadIdx.x] = globalX();
  __syncthreads();
  out[globalX()] = tile[127 - threadIdx.x];
}

int main(int argc, char **argv) {
  // LAUNCHES: how often each kernel runs (default 1): online mode's cost
  // clone, guard trials and verdict must each leave the outputs as the
  // original does.
  int Launches = launchCount(argc, argv);
  if (Launches == 0)
    return 2;
  const int N = 8 * 256 - 37; // partial last block
  Buffer<float> data(N + 64, [](size_t I) { return float(I % 13) * 0.25f - 1.0f; });
  Buffer<int> trips(N, [](size_t I) { return int((I * 7919) % 97); });
  Buffer<double> angles(N, [](size_t I) { return 0.5 + double(I) * 0.37; });
  Buffer<unsigned> seeds(N, [](size_t I) { return unsigned(I * 2654435761u); });
  Buffer<float> loop(N), polyF(N);
  Buffer<double> math(N), polyD(N);
  const int W = 70, H = 30;
  Buffer<unsigned> ids(W * H), rec(N), shared(4 * 128);

  for (int L = 0; L < Launches; ++L) {
    loopHelper<<<8, 256>>>(data.Device, loop.Device, trips.Device, N);
    doubleMath<<<8, 256>>>(angles.Device, math.Device, N);
    templateHelper<<<8, 256>>>(data.Device, polyF.Device, polyD.Device, N);
    idHelpers<<<dim3(5, 4), dim3(16, 8)>>>(ids.Device, W, H);
    recursion<<<8, 256>>>(seeds.Device, rec.Device, N);
    sharedNeighbours<<<4, 128>>>(shared.Device);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::FILE *F = std::fopen(argv[1], "wb");
  if (!F) {
    std::perror(argv[1]);
    return 1;
  }
  loop.dump(F);
  math.dump(F);
  polyF.dump(F);
  polyD.dump(F);
  ids.dump(F);
  rec.dump(F);
  shared.dump(F);
  std::fclose(F);
  std::printf("wrote %s\n", argv[1]);
  return 0;
}
