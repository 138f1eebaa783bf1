// Device job of a real CUDA compile, at -O0 and -O2: every kernel gets a
// profile clone and notes with source lines; device functions are inlined
// and counted as part of their kernel.
// REQUIRES: llvm-tools
// RUN: %clang_cuda -O2 -gline-tables-only -fpass-plugin=%plugin --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang_cuda -O0 -gline-tables-only -fpass-plugin=%plugin --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s

__device__ int square(int x) { return x * x; }

__global__ void first(int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = square(t);
}

__global__ void second(float *out) { out[threadIdx.x] = 1.0f; }

// Each kernel's notes in a global of its own (-fgpu-rdc links modules).
// CHECK: @_Z5firstPii__divopt_notes = {{.*}}addrspace(1) constant
// CHECK-SAME: \22name\22:\22_Z5firstPii\22
// CHECK-SAME: \22module\22:\22{{.*}}device-job.cu\22
// CHECK: @_Z6secondPf__divopt_notes = {{.*}}addrspace(1) constant
// CHECK-SAME: \22name\22:\22_Z6secondPf\22
// CHECK: define {{.*}}ptx_kernel void @_Z5firstPii(ptr {{.*}}, i32 {{.*}})
// CHECK: define {{.*}}ptx_kernel void @_Z6secondPf(ptr
// CHECK: define {{.*}}ptx_kernel void @_Z5firstPii__divopt_profile(ptr {{.*}}, i32 {{.*}}, ptr addrspace(1) %{{[^,]*}}, ptr addrspace(1) %{{[^,]*}}, ptr addrspace(1) %{{[^,]*}})
// CHECK: define {{.*}}ptx_kernel void @_Z6secondPf__divopt_profile(ptr {{.*}}, ptr addrspace(1) %{{[^,]*}}, ptr addrspace(1) %{{[^,]*}}, ptr addrspace(1) %{{[^,]*}})
// CHECK-NOT: @_Z5firstPii__divopt_profile__divopt_profile
