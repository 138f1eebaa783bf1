// Redirected clones of 2-D and 3-D kernels, with the thread id in arithmetic
// and an early exit: no read of %tid or %ctaid survives past the prologue.
// REQUIRES: llvm-tools
// RUN: %clang_cuda -O2 -fpass-plugin=%plugin --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s

__global__ void image(float *img, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  img[y * w + x] = x * 0.5f + y * threadIdx.y;
}

__global__ void volume(int *v, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  v[(z * ny + y) * nx + x] = x ^ (y << 8) ^ (z << 16);
}

// CHECK-LABEL: define {{.*}}ptx_kernel void @_Z5imagePfii__divopt_redirect(
// CHECK: load i32, ptr addrspace(1)
// CHECK: udiv i32
// CHECK-NOT: @llvm.nvvm.read.ptx.sreg.tid.
// CHECK-NOT: @llvm.nvvm.read.ptx.sreg.ctaid.
// CHECK: ret void
// CHECK-LABEL: define {{.*}}ptx_kernel void @_Z6volumePiii__divopt_redirect(
// CHECK: load i32, ptr addrspace(1)
// CHECK: udiv i32
// CHECK-NOT: @llvm.nvvm.read.ptx.sreg.tid.
// CHECK-NOT: @llvm.nvvm.read.ptx.sreg.ctaid.
// CHECK: ret void
