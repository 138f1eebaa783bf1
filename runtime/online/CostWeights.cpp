#include "online/CostWeights.h"
#include "latency/BlockPricing.h"
#include "online/DecisionKernels.h"
#include "optimize/DeviceLatencyTable.h"

#include <map>
#include <mutex>
#include <vector>

namespace divopt::rt::online {

CostWeights costWeights(const KernelInfo &K, cudaStream_t Stream, std::string &Why) {
  static std::mutex Lock;
  static std::map<const KernelInfo *, CostWeights> Known;
  std::lock_guard<std::mutex> G(Lock);
  auto [At, New] = Known.try_emplace(&K);
  if (!New)
    return At->second;
  std::vector<double> Cycles = priceBlocks(K.Note, latencyTable()).Cycles;
  std::vector<float> Host(Cycles.begin(), Cycles.end());
  // cudaMalloc, not cudaMallocAsync: a process's first cudaMallocAsync sets
  // up the memory pool, 9-10 ms on an H100, more than many programs' runs.
  float *Device = nullptr;
  if (cudaMalloc(reinterpret_cast<void **>(&Device), Host.size() * sizeof(float)) != cudaSuccess) {
    cudaGetLastError();
    Why = "cannot place its " + std::to_string(Host.size()) + " block weights on the GPU";
    return {};
  }
  CostWeights W{Device, nullptr};
  if (queueUpload(Host.data(), uint32_t(Host.size()), Device, Stream) != cudaSuccess ||
      cudaEventCreateWithFlags(&W.Ready, cudaEventDisableTiming) != cudaSuccess ||
      cudaEventRecord(W.Ready, Stream) != cudaSuccess) {
    cudaGetLastError();
    Why = "cannot copy its block weights to the GPU";
    return {};
  }
  At->second = W;
  return W;
}

} // namespace divopt::rt::online
