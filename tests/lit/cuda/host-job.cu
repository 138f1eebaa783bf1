// Host job of a real CUDA compile: launches go through the runtime with the
// kernel's device-side name, at -O0 and -O3, and the remark says so.
// REQUIRES: llvm-tools
// RUN: echo > %t.fatbin
// RUN: %clang_cuda -O0 -fpass-plugin=%plugin --cuda-host-only -Xclang -fcuda-include-gpubinary -Xclang %t.fatbin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang_cuda -O3 -fpass-plugin=%plugin --cuda-host-only -Xclang -fcuda-include-gpubinary -Xclang %t.fatbin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang_cuda -O2 -fpass-plugin=%plugin -Rpass=divopt --cuda-host-only -Xclang -fcuda-include-gpubinary -Xclang %t.fatbin -S -emit-llvm %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

__global__ void kern(int *p) { p[threadIdx.x] = 1; }

void launch(int *p, cudaStream_t s) { kern<<<2, 64, 0, s>>>(p); }

// CHECK: [[NAME:@[0-9]+]] = private unnamed_addr constant [10 x i8] c"_Z4kernPi\00"
// CHECK: call {{.*}}i32 @__divopt_launch_kernel(ptr {{.*}}@_Z19__device_stub__kernPi, {{.*}}, ptr [[NAME]])
// CHECK-NOT: call {{.*}} @cudaLaunchKernel(
// REMARK: remark: launch of kernel 'kern(int*)' goes through the divopt runtime
