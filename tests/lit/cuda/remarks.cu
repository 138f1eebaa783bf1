// -Rpass=divopt says what was instrumented, with the kernel's source line.
// REQUIRES: llvm-tools
// RUN: %clang_cuda -O2 -gline-tables-only -fpass-plugin=%plugin -Rpass=divopt --cuda-device-only -S %s -o /dev/null 2>&1 | FileCheck %s

__global__ void kern(int *p, int n) {
  for (int i = 0; i < n; ++i)
    p[i] += i;
}

// CHECK: remarks.cu:5:1: remark: kernel 'kern(int*, int)': {{[0-9]+}} basic blocks, {{[0-9]+}} conditional branches counted in profile clone _Z4kernPii__divopt_profile
