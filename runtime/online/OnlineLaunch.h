// Optimize mode with no profile and no model: each kernel and launch shape
// decides for itself on the GPU (OnlineSlot.h). With DIVOPT_VERBOSE, a
// summary table per kernel and shape is printed at exit.
#pragma once
#include "launch/KernelRegistry.h"
#include "profile/ProfileLaunch.h"

namespace divopt::rt {

// True when no layout can gain on this launch of K and none is asked for by
// name: its notes say it diverges only at bounds guards
// (KernelNote::Divergence), the launch is 1-D and the guards' warps are too
// few a share of it to reach the minimum gain.
// The caller runs the original: no cost clone, no decision.
bool runsAsWritten(const KernelInfo &K, const LaunchRequest &L);

// False when K has no cost clone (built before online mode, or refused):
// the caller launches the original. Otherwise Result is the launch's.
bool launchOnline(KernelInfo &K, const LaunchRequest &L, cudaError_t &Result);

} // namespace divopt::rt
