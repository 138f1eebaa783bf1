// The notes' divergence verdict (passes/GuardDivergence.h): a kernel whose
// only branches that depend on the thread compare the global x index with a
// value the launch shares is "guards only", which online mode runs as
// written in 1-D launches; any other dependence on the thread, a switch on
// it, or a callee that branches is not.
// REQUIRES: llvm-tools
// RUN: %clang_cuda -O2 -gline-tables-only --cuda-device-only -S -emit-llvm %s -o %t.ll
// RUN: %opt -load-pass-plugin=%plugin -passes=divopt-print-notes -disable-output %t.ll \
// RUN:   | %python %S/../device/Inputs/summarize-divergence.py | FileCheck %s

__device__ __noinline__ float straight(float x) { return x * 2.f; }
__device__ __noinline__ float looping(float x) {
  float s = 0.f;
  for (int k = 0; k < int(x); ++k)
    s += float(k);
  return s;
}

// CHECK: _Z6boundsPKfPfj: guards (1 comparisons)
__global__ void bounds(const float *x, float *y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] * 2.f;
}

// CHECK: _Z9earlyExitPfi: guards (1 comparisons)
__global__ void earlyExit(float *y, int n) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i >= n)
    return;
  y[i] += 1.f;
}

// An interval and a uniform flag.
// CHECK: _Z12rangeAndFlagPfjjb: guards (2 comparisons)
__global__ void rangeAndFlag(float *y, unsigned lo, unsigned hi, bool flag) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= lo && i < hi && flag)
    y[i] = 0.f;
}

// A loop every thread runs as often: uniform.
// CHECK: _Z11uniformLoopPfPKfji: guards (1 comparisons)
__global__ void uniformLoop(float *y, const float *w, unsigned n, int k) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float a = 0.f;
    for (int j = 0; j < k; ++j)
      a += w[j];
    y[i] = a;
  }
}

// CHECK: _Z12straightCallPfj: guards (1 comparisons)
__global__ void straightCall(float *y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = straight(y[i]);
}

// Sizes from a by-value struct or a __constant__ variable are uniform.
struct Arrays {
  const float *x;
  float *y;
  unsigned n;
};
__constant__ unsigned Count;

// CHECK: _Z8byStruct6Arrays: guards (1 comparisons)
__global__ void byStruct(Arrays a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < a.n)
    a.y[i] = a.x[i];
}

// CHECK: _Z10byConstantPf: guards (1 comparisons)
__global__ void byConstant(float *y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < Count)
    y[i] = 1.f;
}

// Each iteration's threads still in the loop are a prefix of the index.
// CHECK: _Z10gridStridePfj: guards (2 comparisons)
__global__ void gridStride(float *y, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = 1.f;
}

// Half of every block's first warp: regrouping across blocks could fill warps.
// CHECK: _Z13threadInBlockPf: diverges: the branch at line [[@LINE+2]] depends on the thread
__global__ void threadInBlock(float *y) {
  if (threadIdx.x < 16)
    y[threadIdx.x] = 1.f;
}

// CHECK: _Z10dataBranchPKiPfj: diverges: the branch at line [[@LINE+3]] depends on the thread
__global__ void dataBranch(const int *f, float *y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && f[i])
    y[i] = 1.f;
}

// CHECK: _Z3oddPfj: diverges: the branch at line [[@LINE+3]] depends on the thread
__global__ void odd(float *y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (i & 1))
    y[i] = 1.f;
}

// CHECK: _Z10threadLoopPfj: diverges: the branch at line {{[0-9]+}} depends on the thread
__global__ void threadLoop(float *y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float a = 0.f;
    for (unsigned j = 0; j < i % 7; ++j)
      a += float(j);
    y[i] = a;
  }
}

// The y index: rows of a 2-D block share a warp.
// CHECK: _Z4rowsPfjj: diverges: the branch at line [[@LINE+3]] depends on the thread
__global__ void rows(float *y, unsigned w, unsigned h) {
  unsigned c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
  if (c < w && r < h)
    y[r * w + c] = 1.f;
}

// A block size written as a constant is the index only in launches of that size.
// CHECK: _Z10fixedBlockPfj: diverges: the branch at line [[@LINE+3]] depends on the thread
__global__ void fixedBlock(float *y, unsigned n) {
  unsigned i = blockIdx.x * 256 + threadIdx.x;
  if (i < n)
    y[i] = 1.f;
}

// CHECK: _Z11loopingCallPfj: diverges: it calls looping(float), which branches
__global__ void loopingCall(float *y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = looping(y[i]);
}

// CHECK: _Z8switchedPfj: diverges: the switch at line [[@LINE+3]] depends on the thread
__global__ void switched(float *y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  switch (i % 5) {
  case 0: y[i] = 1.f; break;
  case 1: y[i] = 2.f; break;
  case 3: y[i] = 7.f; break;
  }
}
