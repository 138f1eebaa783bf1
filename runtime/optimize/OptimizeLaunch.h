// Optimize mode: launch a kernel's redirected clone with the regrouping its
// plan chose, or report that the original should run.
#pragma once
#include "profile/ProfileLaunch.h"

namespace divopt::rt {

// False: nothing launched, run the original (the reason was reported once).
bool launchOptimized(KernelInfo &K, const LaunchRequest &L, cudaError_t &Result);

} // namespace divopt::rt
