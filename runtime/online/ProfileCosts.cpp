#include "online/ProfileCosts.h"
#include "latency/BlockPricing.h"
#include "optimize/BbvSource.h"
#include "optimize/DeviceLatencyTable.h"

namespace divopt::rt::online {

bool profileCosts(KernelInfo &K, const LaunchRequest &L, std::vector<float> &Cost,
                  std::string &Why) {
  LaunchBbvs From = compactProfileRecord(K, L);
  if (!From.Bbvs) {
    Why = From.Why;
    return false;
  }
  std::vector<double> Cycles = priceBlocks(K.Note, latencyTable()).Cycles;
  const LaunchProfile &P = *From.Bbvs;
  uint32_t Threads = From.Bbv.Threads, Blocks = uint32_t(Cycles.size());
  if (From.Bbv.Blocks != Blocks) {
    Why = "its profile record has " + std::to_string(From.Bbv.Blocks) + " blocks, the kernel " +
          std::to_string(Blocks);
    return false;
  }
  Cost.assign(Threads, 0.0f);
  if (!From.Bbv.Counts) {
    if (P.ClassOf.size() != Threads || P.ClassCounts.size() != size_t(P.NumClasses) * Blocks) {
      Why = "its profile record has no classes for its " + std::to_string(Threads) + " threads";
      return false;
    }
    // Version 3: one sum per class, then a lookup per thread.
    std::vector<float> ClassCost(P.NumClasses);
    for (uint32_t C = 0; C < P.NumClasses; ++C) {
      double Sum = 0;
      for (uint32_t Bb = 0; Bb < Blocks; ++Bb)
        Sum += double(P.ClassCounts[size_t(C) * Blocks + Bb]) * Cycles[Bb];
      ClassCost[C] = float(Sum);
    }
    for (uint32_t T = 0; T < Threads; ++T)
      Cost[T] = ClassCost[P.ClassOf[T]];
    return true;
  }
  // Versions 1 and 2: the dense counts, a block's column at a time.
  std::vector<double> Sum(Threads, 0.0);
  for (uint32_t Bb = 0; Bb < Blocks; ++Bb)
    for (uint32_t T = 0; T < Threads; ++T)
      Sum[T] += double(From.Bbv.count(Bb, T)) * Cycles[Bb];
  for (uint32_t T = 0; T < Threads; ++T)
    Cost[T] = float(Sum[T]);
  return true;
}

} // namespace divopt::rt::online
