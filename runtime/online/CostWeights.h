// The cost clone's weights: each basic block's latency (cycles, priced from
// the kernel's instruction mix with this GPU's latency table), in device
// memory, one array per kernel, uploaded once in stream order.
#pragma once
#include "launch/KernelRegistry.h"

#include <cuda_runtime_api.h>

namespace divopt::rt::online {

struct CostWeights {
  const float *Device = nullptr; // null: Why says what failed
  cudaEvent_t Ready = nullptr;   // recorded after the upload; other streams wait on it
};

// Uploads on Stream the first time K asks, later calls return the same.
CostWeights costWeights(const KernelInfo &K, cudaStream_t Stream, std::string &Why);

} // namespace divopt::rt::online
