// The cost clone's weights: each basic block's latency (cycles, priced from
// the kernel's instruction mix with this GPU's latency table), one array per
// kernel, priced once. They travel by value in the cost clone's launch
// parameters (abi::CostCloneSuffix): no device memory, no upload.
#pragma once
#include "launch/KernelRegistry.h"

#include <vector>

namespace divopt::rt::online {

// K's weights, one per notes block; priced the first time K asks.
const std::vector<float> &costWeights(const KernelInfo &K);

} // namespace divopt::rt::online
