// The feature analysis on CUDA as clang compiles it: -Rpass=divopt lists the
// features of kernels whose block counts are all predictable, and
// -Rpass-missed=divopt names the line that makes a count unpredictable.
// REQUIRES: llvm-tools
// RUN: %clang_cuda -O2 -gline-tables-only -fpass-plugin=%plugin -Rpass=divopt -Rpass-missed=divopt --cuda-device-only -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clang_cuda -O2 -gline-tables-only --cuda-device-only -S -emit-llvm %s -o %t.ll
// RUN: %opt -load-pass-plugin=%plugin -passes=divopt-print-notes -disable-output %t.ll \
// RUN:   | %python %S/../device/Inputs/summarize-features.py | FileCheck %s

__global__ void spmv(const int *row_ptr, const float *val, const float *x, float *y, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  float s = 0;
  for (int j = row_ptr[t]; j < row_ptr[t + 1]; ++j)
    s += val[j] * x[j];
  y[t] = s;
}

// REMARK: features.cu:10:1: remark: kernel 'spmv(int const*, float const*, float const*, float*, int)': every basic block's count is predictable from 4 feature(s): tid, param4, param0[tid], param0[tid + 1]; extracted by _Z4spmvPKiPKfS2_Pfi__divopt_features

// CHECK-LABEL: kernel _Z4spmvPKiPKfS2_Pfi
// CHECK-NEXT:  feature 0: tid tid
// CHECK-NEXT:  feature 1: param param4 param 4 i32
// CHECK-NEXT:  feature 2: load param0[tid] param 0 i32
// CHECK-NEXT:  feature 3: load param0[tid + 1] param 0 i32
// CHECK-NEXT:  block 0 {{.*}}: []
// CHECK-NOT:   unpredictable
// CHECK:       block {{[0-9]+}} {{.*}}: [0, 1, 2, 3]
// CHECK-NOT:   unpredictable
// CHECK-LABEL: kernel

__global__ void collatz(const unsigned long long *start, unsigned *steps, float *score) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long x = start[i];
  unsigned count = 0;
  while (x != 1) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++count;
  }
  steps[i] = count;
  if (count & 1)
    score[i] = 1.0f;
}

// The loop, and the branch on its result, cannot be predicted.
// REMARK: features.cu:[[@LINE-9]]:{{[0-9]+}}: remark: kernel 'collatz(unsigned long long const*, unsigned int*, float*)': the counts of {{[0-9]+}} of {{[0-9]+}} basic blocks cannot be predicted from its inputs: its count depends on a value computed in a loop

// CHECK-NEXT:  block 0 {{.*}}: []
// CHECK:       block {{[0-9]+}} {{.*}}: unpredictable: its count depends on a value computed in a loop (line [[@LINE-12]])
