#include "online/CostWeights.h"
#include "latency/BlockPricing.h"
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
  size_t Bytes = Cycles.size() * sizeof(float);
  // Pinned, so the copy is queued in stream order like the launches after it;
  // kept for the process, as the device copy is.
  float *Host = nullptr, *Device = nullptr;
  if (cudaMallocHost(reinterpret_cast<void **>(&Host), Bytes) != cudaSuccess ||
      cudaMallocAsync(reinterpret_cast<void **>(&Device), Bytes, Stream) != cudaSuccess) {
    cudaGetLastError();
    Why = "cannot place its " + std::to_string(Cycles.size()) + " block weights on the GPU";
    return {};
  }
  for (size_t B = 0; B < Cycles.size(); ++B)
    Host[B] = float(Cycles[B]);
  CostWeights W{Device, nullptr};
  if (cudaMemcpyAsync(Device, Host, Bytes, cudaMemcpyHostToDevice, Stream) != cudaSuccess ||
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
