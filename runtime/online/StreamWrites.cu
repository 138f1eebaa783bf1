// The small writes online mode queues in stream order around the user's
// launches: timestamps and the thread ids. They live in a
// module of their own, apart from the decision's CUB sort: under CUDA's lazy
// loading a kernel's first launch loads its module, and this small one loads
// in microseconds, so a shape's first launch queues the cost clone (the
// user's work) before the sort's large module loads, which then overlaps the
// clone's run (measured on an H100: 0.86 ms of host time before the clone
// when they shared a module).
#include "online/DecisionKernels.h"
#include "launch/GlobalTimer.h"
#include "launch/LoadKernels.h"

namespace divopt::rt::online {
namespace {

constexpr unsigned IdsThreads = 256;

__global__ void stampKernel(unsigned long long *At) { *At = globalTimer(); }

__global__ void idsKernel(uint32_t *Ids, uint32_t N) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Ids[I] = I;
}

} // namespace

cudaError_t preloadStreamWrites() {
  return loadKernels(&stampKernel, &idsKernel);
}

cudaError_t queueStamp(const DecisionBuffers &B, Stamp Which, cudaStream_t S) {
  stampKernel<<<1, 1, 0, S>>>(&B.Control->Stamps[Which]);
  return cudaGetLastError();
}

cudaError_t queueIds(const DecisionBuffers &B, cudaStream_t S) {
  idsKernel<<<(B.Threads + IdsThreads - 1) / IdsThreads, IdsThreads, 0, S>>>(B.Ids, B.Threads);
  return cudaGetLastError();
}

} // namespace divopt::rt::online
