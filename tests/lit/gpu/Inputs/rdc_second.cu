// The second translation unit of the -fgpu-rdc program (rdc_first.cu).
#include "divopt/CudaCheck.h"

__device__ float scaleFromSecond(float x) { return x * 1.5f + float(threadIdx.x % 7); }

__global__ void rdcImage(float *img, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float v = 0;
#pragma unroll 1
  for (int i = 0; i < (x * y) % 13; ++i)
    v += sqrtf(float(i + x));
  img[y * w + x] = v + threadIdx.y;
}

void launchSecond(float *img, int w, int h) {
  rdcImage<<<dim3(3, 3), dim3(16, 8)>>>(img, w, h);
  CHECK(cudaGetLastError());
}
