#include "online/CostWeights.h"
#include "latency/BlockPricing.h"
#include "optimize/DeviceLatencyTable.h"

#include <map>
#include <mutex>

namespace divopt::rt::online {

const std::vector<float> &costWeights(const KernelInfo &K) {
  static std::mutex Lock;
  static std::map<const KernelInfo *, std::vector<float>> Known;
  std::lock_guard<std::mutex> G(Lock);
  auto [At, New] = Known.try_emplace(&K);
  if (New) {
    std::vector<double> Cycles = priceBlocks(K.Note, latencyTable()).Cycles;
    At->second.assign(Cycles.begin(), Cycles.end());
  }
  return At->second;
}

} // namespace divopt::rt::online
