#include "optimize/DeviceLatencyTable.h"
#include "latency/BuiltinLatencyTables.h"
#include "launch/RuntimeConfig.h"

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <future>

namespace divopt::rt {
namespace {

// Parsing the built-in table's JSON takes about 0.8 ms on the GPU hosts, which
// a program's first online decision would wait for. In optimize mode it
// starts on its own thread when the runtime loads, for the table an H100 or
// H200 gets; latencyTable() takes it when this GPU gets the same one.
constexpr unsigned PrefetchFor = 90;

std::shared_future<LatencyTable> &prefetchedTable() {
  static std::shared_future<LatencyTable> Table = std::async(std::launch::async, [] {
    std::string Warning;
    return builtinLatencyTable(PrefetchFor, Warning);
  });
  return Table;
}

const bool Prefetching = [] {
  const char *Mode = std::getenv("DIVOPT_MODE");
  if (Mode && std::string(Mode) == "optimize")
    prefetchedTable();
  return true;
}();

} // namespace

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
    std::string Warning = builtinTableWarning(Here);
    LatencyTable T = nearestBuiltinTable(Here) == nearestBuiltinTable(PrefetchFor)
                         ? prefetchedTable().get()
                         : builtinLatencyTable(Here, Warning);
    if (!Warning.empty())
      warn(Warning);
    return T;
  }();
  return Table;
}

} // namespace divopt::rt
