#include "online/OnlineProcess.h"
#include "online/DecisionKernels.h"
#include "online/GainBound.h"
#include "online/ResultPool.h"
#include "optimize/DeviceLatencyTable.h"

#include <mutex>

namespace divopt::rt::online {

void prepareProcess(cudaStream_t Stream) {
  static std::once_flag Prepared;
  std::call_once(Prepared, [&] {
    latencyTable();
    if (preloadStreamWrites() != cudaSuccess || preloadGainBound() != cudaSuccess ||
        preloadDecisionKernels(Stream) != cudaSuccess)
      cudaGetLastError(); // not fatal: the kernels load at first use instead
    registerResultPool();
  });
}

} // namespace divopt::rt::online
