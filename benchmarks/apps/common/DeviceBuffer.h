// Owning device memory for the apps: upload from / download to std::vector,
// freed on scope exit. Errors exit through BENCH_CUDA.
#pragma once

#include "BenchApp.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace bench {

template <class T> class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t Count) : N(Count) {
    // cudaMalloc of zero bytes may return null; one element keeps get() valid.
    BENCH_CUDA(cudaMalloc(&Ptr, sizeof(T) * (N ? N : 1)));
  }
  explicit DeviceBuffer(const std::vector<T> &Host) : DeviceBuffer(Host.size()) {
    BENCH_CUDA(cudaMemcpy(Ptr, Host.data(), sizeof(T) * N, cudaMemcpyHostToDevice));
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer() { cudaFree(Ptr); }

  T *get() const { return Ptr; }
  size_t size() const { return N; }
  std::vector<T> download() const {
    std::vector<T> Host(N);
    BENCH_CUDA(cudaMemcpy(Host.data(), Ptr, sizeof(T) * N, cudaMemcpyDeviceToHost));
    return Host;
  }

private:
  T *Ptr = nullptr;
  size_t N;
};

// Milliseconds one piece of GPU work took on the default stream (CUDA events),
// for the hand-written variant's key computation.
template <class Work> float timeOnceMs(const Work &Run) {
  cudaEvent_t Start, Stop;
  BENCH_CUDA(cudaEventCreate(&Start));
  BENCH_CUDA(cudaEventCreate(&Stop));
  BENCH_CUDA(cudaEventRecord(Start, 0));
  Run();
  BENCH_CUDA(cudaGetLastError());
  BENCH_CUDA(cudaEventRecord(Stop, 0));
  BENCH_CUDA(cudaEventSynchronize(Stop));
  float Ms = 0;
  BENCH_CUDA(cudaEventElapsedTime(&Ms, Start, Stop));
  BENCH_CUDA(cudaEventDestroy(Start));
  BENCH_CUDA(cudaEventDestroy(Stop));
  return Ms;
}

} // namespace bench
