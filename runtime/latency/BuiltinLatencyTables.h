// Latency tables measured by benchmarks/latency on real GPUs and built into
// divopt (runtime/latency/tables/), so the model prices blocks with measured
// cycles when no table is given. Today: sm_90 (H100).
#pragma once
#include "latency/LatencyTable.h"

#include <string>

namespace divopt {

// The table measured on this compute capability (major * 10 + minor), else
// the nearest one measured, with Warning saying so.
LatencyTable builtinLatencyTable(unsigned ComputeCapability, std::string &Warning);

// The compute capability of the table builtinLatencyTable picks, and the
// Warning it gives (empty when the table was measured on this one).
unsigned nearestBuiltinTable(unsigned ComputeCapability);
std::string builtinTableWarning(unsigned ComputeCapability);

} // namespace divopt
