// Code that reads the ids without a call written in the kernel: bound where
// it is declared, a redirected copy could not pass it the logical ids, so
// the kernel stays as written (tests/lit/rewrite/hidden-reads.test).
__device__ int scaled(int x, int by = threadIdx.x) { return x * by; }
__global__ void defaultArg(int *p) { p[0] = scaled(3); }
struct Slot { unsigned T = threadIdx.x; };
__global__ void memberInit(unsigned *p) { Slot S; p[S.T] = 1; }
struct Agg { unsigned T = blockIdx.x; unsigned U; };
__global__ void aggregate(unsigned *p) { Agg A{.U = 1}; p[A.T] = A.U; }
struct Logger { unsigned *Out; __device__ ~Logger() { Out[threadIdx.x] = 7; } };
__global__ void destroys(unsigned *p) { Logger L{p}; }
__device__ int viaDefault() { return scaled(2); }
__global__ void indirectDefault(int *p) { p[threadIdx.x] = viaDefault(); }
__global__ void fine(int *p) { p[threadIdx.x] = scaled(3, 2); }
