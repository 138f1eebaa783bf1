// Notes name each block's source lines in the kernel, even for code inlined
// from a device function (the call site's line), and the kernel's own line.
// REQUIRES: llvm-tools
// RUN: %clang_cuda -O2 -gline-tables-only --cuda-device-only -S -emit-llvm %s -o %t.ll
// RUN: %opt -load-pass-plugin=%plugin -passes=divopt-print-notes -disable-output %t.ll | FileCheck %s

__device__ float work(float x) { return x * x + 1.0f; }

__global__ void kern(const float *in, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  out[t] = work(in[t]);
}

// CHECK:      "lines": [
// CHECK-NEXT:   10,
// CHECK-NEXT:   11
// CHECK:      "lines": [
// CHECK-NEXT:   13,
// CHECK-NEXT:   14
// CHECK:      "branches": [
// CHECK:      "file": "{{.*}}notes-lines.cu",
// CHECK-NEXT: "line": 9,
// CHECK-NEXT: "local_bytes": 0,
// CHECK-NEXT: "name": "_Z4kernPKfPfi",
// CHECK-NEXT: "params": 3
