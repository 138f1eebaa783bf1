// Kernels that call device functions (issue 15): a kernel is judged with
// every function it can reach. Accepted: a __noinline__ helper with a loop,
// double pow/sin/cos (CUDA's out-of-line internals), a template helper, a
// helper reading threadIdx and blockIdx, recursion. Refused, at the kernel's
// call with the callee and the callee's line named: a shuffle, a barrier,
// shared memory and %laneid two calls deep, and an indirect call.
// REQUIRES: llvm-tools
// RUN: %clang_cuda -O2 -gline-tables-only -fpass-plugin=%plugin -Rpass=divopt -Rpass-missed=divopt --cuda-device-only -S -emit-llvm %s -o %t.ll 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s --check-prefix=IR < %t.ll

__device__ __noinline__ float weightedSum(const float *p, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i] * i;
  return s;
}
__global__ void loopHelper(const float *p, float *out, const int *n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = weightedSum(p, n[t]);
}
// REMARK-DAG: remark: kernel 'loopHelper(float const*, float*, int const*)' can be regrouped at launch: redirected clone _Z10loopHelperPKfPfPKi__divopt_redirect, cost clone _Z10loopHelperPKfPfPKi__divopt_cost

__global__ void doubleMath(const double *in, double *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = pow(in[t], 1.7) + sin(in[t] * 1e6) + cos(in[t] * 3e7);
}
// REMARK-DAG: remark: kernel 'doubleMath(double const*, double*)' can be regrouped at launch

template <typename T> __device__ __noinline__ T polynomial(T x, int degree) {
  T acc = 0;
  for (int i = 0; i < degree; ++i)
    acc = acc * x + T(i + 1);
  return acc;
}
__global__ void templateHelper(const float *in, float *out, int degree) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = polynomial(in[t], degree + t % 7);
}
// REMARK-DAG: remark: kernel 'templateHelper(float const*, float*, int)' can be regrouped at launch

__device__ __noinline__ unsigned globalId() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __noinline__ unsigned mix(unsigned x) { return x * 2654435761u ^ globalId() ^ blockIdx.y; }
__global__ void idHelpers(unsigned *out) { out[globalId()] = mix(threadIdx.y); }
// REMARK-DAG: remark: kernel 'idHelpers(unsigned int*)' can be regrouped at launch: redirected clone _Z9idHelpersPj__divopt_redirect

__device__ __noinline__ unsigned splits(unsigned x) {
  if (x <= 1)
    return threadIdx.x % 3;
  return splits(x / 2) + splits(x / 3) + 1;
}
__global__ void recursion(const unsigned *in, unsigned *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = splits(in[t]);
}
// REMARK-DAG: remark: kernel 'recursion(unsigned int const*, unsigned int*)' can be regrouped at launch

// Refused two calls deep: each remark sits at the kernel's call and names
// both calls and the line in the inner callee.
__device__ __noinline__ int shuffled(int x) { return __shfl_xor_sync(0xffffffffu, x, 1); }
__device__ __noinline__ int viaShuffle(int x) { return shuffled(x) + 1; }
__global__ void deepShuffle(int *p) { p[threadIdx.x] = viaShuffle(p[threadIdx.x]); }
// REMARK-DAG: calls.cu:[[@LINE-1]]:56: remark: kernel 'deepShuffle(int*)' will not be regrouped: it calls viaShuffle(int) at calls.cu:[[@LINE-1]], which calls shuffled(int) at calls.cu:[[@LINE-2]], which at calls.cu:[[@LINE-3]] uses a warp shuffle (__shfl_*), which depends on how threads are grouped

__device__ __noinline__ void synced(float *p) {
  p[threadIdx.x] += 1.0f;
  __syncthreads();
}
__device__ __noinline__ void viaBarrier(float *p) { synced(p + 1); }
__global__ void deepBarrier(float *p) { viaBarrier(p); }
// REMARK-DAG: calls.cu:[[@LINE-1]]:41: remark: kernel 'deepBarrier(float*)' will not be regrouped: it calls viaBarrier(float*) at calls.cu:[[@LINE-1]], which calls synced(float*) at calls.cu:[[@LINE-2]], which at calls.cu:[[@LINE-4]] uses a block-wide barrier (__syncthreads or a named barrier), which depends on how threads are grouped

__shared__ float sharedTile[256];
__device__ __noinline__ float neighbour(int i) { return sharedTile[255 - i]; }
__device__ __noinline__ float viaShared(int i) { return neighbour(i) * 2.0f; }
__global__ void deepShared(float *p) { p[threadIdx.x] = viaShared(threadIdx.x); }
// REMARK-DAG: calls.cu:[[@LINE-1]]:57: remark: kernel 'deepShared(float*)' will not be regrouped: it calls viaShared(int) at calls.cu:[[@LINE-1]], which calls neighbour(int) at calls.cu:[[@LINE-2]], which at calls.cu:[[@LINE-3]] uses shared memory, which threads of one block share

__device__ __noinline__ unsigned lane() {
  unsigned id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}
__device__ __noinline__ unsigned viaLane() { return lane() * 2; }
__global__ void deepLane(unsigned *p) { p[threadIdx.x] = viaLane(); }
// REMARK-DAG: calls.cu:[[@LINE-1]]:58: remark: kernel 'deepLane(unsigned int*)' will not be regrouped: it calls viaLane() at calls.cu:[[@LINE-1]], which calls lane() at calls.cu:[[@LINE-2]], which at calls.cu:[[@LINE-5]] uses inline assembly that reads a special register, which depends on how threads are grouped

__device__ __noinline__ int twice(int x) { return 2 * x; }
__device__ __noinline__ int thrice(int x) { return 3 * x; }
__global__ void indirect(int *p, int which) {
  int (*f)(int) = which ? twice : thrice;
  p[threadIdx.x] = f(p[threadIdx.x]);
}
// REMARK-DAG: calls.cu:[[@LINE-2]]:20: remark: kernel 'indirect(int*, int)' will not be regrouped: it makes an indirect call, which divopt cannot see into

// The verdict in the notes is the remark's, at the kernel's line.
// IR: \22name\22:\22_Z11deepShufflePi\22,{{.*}}\22regroup\22:{\22line\22:62,\22reason\22:\22it calls viaShuffle(int) at calls.cu:62, which calls shuffled(int) at calls.cu:61, which at calls.cu:60 uses a warp shuffle

// Helpers that read the ids get a copy with the logical ids appended, which
// the redirected clone calls; the originals, which other clones call, keep
// reading the registers.
// IR-LABEL: define {{.*}} @_Z8globalIdv()
// IR: call {{.*}} @llvm.nvvm.read.ptx.sreg.ctaid.x()
// IR-LABEL: define {{.*}} @_Z9idHelpersPj__divopt_profile(
// IR: call {{.*}} @_Z8globalIdv()
// IR-LABEL: define {{.*}} @_Z9idHelpersPj__divopt_redirect(
// IR: call {{.*}} @_Z3mixj__divopt_ids(i32 {{.*}}%{{[0-9]+}}, i32 [[TX:%[0-9]+]], i32 [[TY:%[0-9]+]], i32 [[TZ:%[0-9]+]], i32 [[CX:%[0-9]+]], i32 [[CY:%[0-9]+]], i32 [[CZ:%[0-9]+]])
// IR-NEXT: call {{.*}} @_Z8globalIdv__divopt_ids(i32 [[TX]], i32 [[TY]], i32 [[TZ]], i32 [[CX]], i32 [[CY]], i32 [[CZ]])
// IR-LABEL: define internal {{.*}} @_Z3mixj__divopt_ids(
// IR-SAME: i32 {{.*}}%0, i32 %1, i32 %2, i32 %3, i32 %4, i32 %5, i32 %6)
// IR-NOT: sreg.tid
// IR-NOT: sreg.ctaid
// IR: call {{.*}} @_Z8globalIdv__divopt_ids(i32 %1, i32 %2, i32 %3, i32 %4, i32 %5, i32 %6)
// IR-NOT: sreg.tid
// IR-NOT: sreg.ctaid
// IR: ret i32
// IR-LABEL: define internal {{.*}} @_Z8globalIdv__divopt_ids(i32 %0, i32 %1, i32 %2, i32 %3, i32 %4, i32 %5)
// IR-NOT: sreg.tid
// IR-NOT: sreg.ctaid
// IR: ret i32
// A recursive helper calls its own copy.
// IR-LABEL: define internal {{.*}} @_Z6splitsj__divopt_ids(
// IR-NOT: sreg.tid
// IR: call {{.*}} @_Z6splitsj__divopt_ids(
// IR-NOT: sreg.tid
// IR: {{^}$}}
