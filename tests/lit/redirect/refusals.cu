// Each reason a kernel cannot be regrouped: a missed remark naming it and its
// source line, the verdict in the notes, no redirected or cost clone, and the
// original kernel unchanged. Accepted kernels get a remark naming both clones.
// REQUIRES: llvm-tools
// RUN: %clang_cuda -O2 -gline-tables-only -fpass-plugin=%plugin -Rpass=divopt -Rpass-missed=divopt --cuda-device-only -S -emit-llvm %s -o %t.ll 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: grep "^define .*__divopt_cost(" %t.ll | FileCheck %s --check-prefix=COST --implicit-check-not=define

__global__ void syncs(float *p) {
  p[threadIdx.x] += 1.0f;
  __syncthreads();
  p[threadIdx.x + 1] *= 2.0f;
}
// REMARK-DAG: refusals.cu:[[@LINE-3]]:3: remark: kernel 'syncs(float*)' will not be regrouped: it uses a block-wide barrier (__syncthreads or a named barrier), which depends on how threads are grouped

__global__ void shuffles(int *p) {
  int v = p[threadIdx.x];
  p[threadIdx.x] = __shfl_xor_sync(0xffffffffu, v, 1);
}
// REMARK-DAG: refusals.cu:[[@LINE-2]]:20: remark: kernel 'shuffles(int*)' will not be regrouped: it uses a warp shuffle (__shfl_*)

__global__ void votes(int *p) { p[threadIdx.x] = __ballot_sync(0xffffffffu, p[threadIdx.x] > 0); }
// REMARK-DAG: remark: kernel 'votes(int*)' will not be regrouped: it uses a warp vote

__global__ void lanes(int *p) {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  p[threadIdx.x] = lane;
}
// REMARK-DAG: remark: kernel 'lanes(int*)' will not be regrouped: it uses inline assembly that reads a special register, which depends on how threads are grouped

// Inline PTX that only computes is as safe as plain arithmetic.
__global__ void pureAsm(unsigned *p) {
  unsigned lo;
  asm("mul.lo.u32 %0, %1, 3;" : "=r"(lo) : "r"(p[threadIdx.x]));
  p[threadIdx.x] = lo;
}
// REMARK-DAG: remark: kernel 'pureAsm(unsigned int*)' can be regrouped at launch
// Its one block's weight travels by value, in the launch's parameters.
// COST: define {{.*}}ptx_kernel void @_Z7pureAsmPj__divopt_cost(ptr {{.*}}, ptr noalias readonly byval([1 x float]) align 4 %{{.*}}, ptr addrspace(1) %{{.*}})

// Parameters and weights past 4096 bytes: regroupable, but no cost clone
// (COST's implicit-check-not=define), so online mode runs it as written.
struct Wide {
  float V[1022];
};
__global__ void wideParams(Wide w, float *p) { p[threadIdx.x] = w.V[threadIdx.x % 1022]; }
// REMARK-DAG: remark: kernel 'wideParams(Wide, float*)' can be regrouped at launch: redirected clone _Z10wideParams4WidePf__divopt_redirect; no cost clone, so no online mode: its parameters and 1 block weights pass 4096 bytes

__global__ void shared(float *p) {
  __shared__ float tile[256];
  tile[threadIdx.x] = p[threadIdx.x];
  p[threadIdx.x] = tile[255 - threadIdx.x] + 1.0f;
}
// REMARK-DAG: remark: kernel 'shared(float*)' will not be regrouped: it uses shared memory, which threads of one block share

__global__ void slots(int *count, int *out) { out[atomicAdd(count, 1)] = threadIdx.x; }
// REMARK-DAG: remark: kernel 'slots(int*, int*)' will not be regrouped: it uses the value an atomic returns, which depends on thread order

__global__ void floatSum(float *sum, const float *in) { atomicAdd(sum, in[threadIdx.x]); }
// REMARK-DAG: remark: kernel 'floatSum(float*, float const*)' will not be regrouped: it uses floating-point atomics, which round differently in another thread order

// A function without a body (device printf's vprintf) may do anything.
// Calls of functions with a body: calls.cu.
__global__ void prints(int *p) { printf("%d\n", p[threadIdx.x]); }
// REMARK-DAG: refusals.cu:[[@LINE-1]]:34: remark: kernel 'prints(int*)' will not be regrouped: it calls vprintf, which has no body in this module for divopt to see into

__global__ void counts(unsigned *total, const int *in) {
  if (in[threadIdx.x] > 0)
    atomicAdd(total, 1u);
}
// REMARK-DAG: remark: kernel 'counts(unsigned int*, int const*)' can be regrouped at launch: redirected clone _Z6countsPjPKi__divopt_redirect, cost clone _Z6countsPjPKi__divopt_cost
// COST: define {{.*}}ptx_kernel void @_Z6countsPjPKi__divopt_cost(

__global__ void fine(float *p, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    p[t] = sqrtf(p[t]) * t;
}
// REMARK-DAG: remark: kernel 'fine(float*, int)' can be regrouped at launch: redirected clone _Z4finePfi__divopt_redirect, cost clone _Z4finePfi__divopt_cost
// COST: define {{.*}}ptx_kernel void @_Z4finePfi__divopt_cost(

// IR: \22name\22:\22_Z5syncsPf\22,\22params\22:1,\22regroup\22:{\22line\22:12,\22reason\22:\22it uses a block-wide barrier
// IR-NOT: define {{.*}}@_Z5syncsPf__divopt_redirect
// IR-NOT: define {{.*}}@_Z6sharedPf__divopt_redirect
// IR: define {{.*}}ptx_kernel void @_Z4finePfi__divopt_redirect(

__global__ void warpSync(int *p) {
  p[threadIdx.x] += 1;
  __syncwarp();
  p[threadIdx.x ^ 1] += 1;
}
// REMARK-DAG: remark: kernel 'warpSync(int*)' will not be regrouped: it uses a block-wide barrier (__syncthreads or a named barrier)

__global__ void active(unsigned *p) { p[threadIdx.x] = __activemask(); }
// REMARK-DAG: remark: kernel 'active(unsigned int*)' will not be regrouped: it uses __activemask

__global__ void matches(unsigned *p) { p[threadIdx.x] = __match_any_sync(0xffffffffu, p[threadIdx.x]); }
// REMARK-DAG: remark: kernel 'matches(unsigned int*)' will not be regrouped: it uses a warp match

__global__ void reduces(unsigned *p) { p[threadIdx.x] = __reduce_add_sync(0xffffffffu, p[threadIdx.x]); }
// REMARK-DAG: remark: kernel 'reduces(unsigned int*)' will not be regrouped: it uses a warp reduction
