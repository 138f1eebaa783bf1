// Where a table's numbers come from: the device, its driver and the SM
// clock the cycles were counted at.
#pragma once
#include "Suite.h"

#include <string>

namespace latency {

struct DeviceInfo {
  std::string Name;
  unsigned ComputeCapability = 0; // major * 10 + minor
  std::string Driver;             // nvidia-smi's driver version, or the CUDA driver API version
  double SmClockMHz = 0;          // measured: clock64 ticks per %globaltimer microsecond
  std::string SmiClocks;          // nvidia-smi's current and maximum SM clock, as it says them
  int SmCount = 0;
  size_t L2Bytes = 0;
};

DeviceInfo describeDevice(const Context &C);

} // namespace latency
