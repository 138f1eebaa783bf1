// Per-thread costs from a recorded profile (DIVOPT_PROFILE_USE), for the
// online decision: the same latency-weighted sums the cost clone computes
// (each block's count times its cycles), read off the launch's BBVs, so a
// profiled shape needs no cost clone and its first launch runs the original.
#pragma once
#include "launch/KernelRegistry.h"
#include "launch/LaunchShape.h"
#include "profile/ProfileLaunch.h"

#include <string>
#include <vector>

namespace divopt::rt::online {

// Fills Cost (one per logical thread) from the profile's record of K and
// shape S and returns true; false with Why when the profile has none (or it
// cannot be read), and the slot falls back to the cost clone.
bool profileCosts(KernelInfo &K, const LaunchRequest &L, std::vector<float> &Cost,
                  std::string &Why);

} // namespace divopt::rt::online
