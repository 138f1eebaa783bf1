// The latency table optimize mode prices blocks with: DIVOPT_LATENCY_TABLE
// when set and readable, else the built-in table of this GPU's compute
// capability (or the nearest one). Read once; problems are said once.
#pragma once
#include "latency/LatencyTable.h"

namespace divopt::rt {

const LatencyTable &latencyTable();

} // namespace divopt::rt
