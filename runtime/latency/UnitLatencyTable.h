// The table used when no measured one is given: every instruction costs one
// cycle, memory instructions cost placeholder figures. It ranks divergence
// by issued instructions, not time; analyze says so when it uses it.
#pragma once
#include "latency/LatencyTable.h"

namespace divopt {

LatencyTable unitLatencyTable();

} // namespace divopt
