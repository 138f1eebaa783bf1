// The kernel patterns of the pass's tests (tests/lit/redirect), as a user
// would write them, for divopt rewrite: tests/lit/rewrite/patterns.test.
#include <cuda_runtime.h>

// 1-D with a tail: threads past n leave early.
__global__ void tail(const int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  out[t] = in[t] * 2;
}

// 2-D, its tail in both dimensions.
__global__ void image(float *img, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  img[y * w + x] = x * 0.5f + y * threadIdx.y;
}

// 3-D, ids through a macro.
#define VOXEL(d) (blockIdx.d * blockDim.d + threadIdx.d)
__global__ void volume(int *v, int nx, int ny) {
  int x = VOXEL(x), y = VOXEL(y), z = VOXEL(z);
  v[(z * ny + y) * nx + x] = x ^ (y << 8) ^ (z << 16);
}

// Device functions that read the ids, one through the other.
__device__ unsigned globalId() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ unsigned mixed(unsigned x) { return x * 2654435761u ^ globalId(); }
__global__ void idHelpers(unsigned *out) { out[globalId()] = mixed(threadIdx.y); }

// The ids read in a lambda, through a function: the lambda's call goes to
// the copy and captures the logical ids.
__global__ void lambdaIds(unsigned *out) {
  auto id = [&] { return globalId(); };
  out[id()] = 1;
}

// A constructor that reads the ids: its copy cannot take them, so the kernel
// stays as written.
struct Where {
  unsigned Thread;
  __device__ Where() : Thread(threadIdx.x) {}
};
__global__ void constructs(unsigned *out) {
  Where W;
  out[W.Thread] = 1;
}

// A device function whose loop runs a different number of times per thread.
__device__ float weightedSum(const float *p, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i] * i;
  return s;
}
__global__ void loopHelper(const float *p, float *out, const int *n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (n[t] > 0)
    out[t] = weightedSum(p, n[t]);
  else
    out[t] = 0;
}

// Refused: a barrier, and shared memory.
__global__ void syncs(float *p) {
  p[threadIdx.x] += 1.0f;
  __syncthreads();
  p[threadIdx.x + 1] *= 2.0f;
}

__global__ void tiled(float *p) {
  __shared__ float tile[256];
  tile[threadIdx.x] = p[threadIdx.x];
  p[threadIdx.x] = tile[255 - threadIdx.x];
}

int main() {
  int *in = nullptr, *out = nullptr;
  float *f = nullptr;
  cudaStream_t stream = 0;
  tail<<<(1000 + 255) / 256, 256>>>(in, out, 1000);
  image<<<dim3(4, 4), dim3(16, 16), 0, stream>>>(f, 64, 64);
  volume  <<< dim3(2, 2, 2), dim3(8, 8, 4) >>> (out, 16, 16);
  idHelpers<<<2, 64>>>((unsigned *)out);
  loopHelper<<<1, 32, 0>>>(f, f, in);
  syncs<<<1, 32>>>(f);
  tiled<<<1, 256>>>(f);
  return cudaDeviceSynchronize();
}
