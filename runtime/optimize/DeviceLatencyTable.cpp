#include "optimize/DeviceLatencyTable.h"
#include "latency/BuiltinLatencyTables.h"
#include "launch/RuntimeConfig.h"

#include <cuda_runtime_api.h>

#include <cstdlib>

namespace divopt::rt {

// DIVOPT_LATENCY_TABLE, else the built-in table measured on this GPU's
// compute capability (or the nearest, said once).
const LatencyTable &latencyTable() {
  static const LatencyTable Table = [] {
    int Device = 0, Major = 0, Minor = 0;
    cudaGetDevice(&Device);
    cudaDeviceGetAttribute(&Major, cudaDevAttrComputeCapabilityMajor, Device);
    cudaDeviceGetAttribute(&Minor, cudaDevAttrComputeCapabilityMinor, Device);
    unsigned Here = unsigned(Major * 10 + Minor);
    if (const char *Path = std::getenv("DIVOPT_LATENCY_TABLE"); Path && *Path) {
      try {
        LatencyTable T = readLatencyTable(Path);
        if (T.Provenance.ComputeCapability != Here)
          warn(std::string(Path) + " was measured on compute capability " +
               std::to_string(T.Provenance.ComputeCapability) + ", this GPU is " +
               std::to_string(Here) + ": its prices may not hold here");
        return T;
      } catch (const std::exception &E) {
        warn(std::string(E.what()) + "; pricing blocks with the built-in table instead");
      }
    }
    std::string Warning;
    LatencyTable T = builtinLatencyTable(Here, Warning);
    if (!Warning.empty())
      warn(Warning);
    return T;
  }();
  return Table;
}

} // namespace divopt::rt
