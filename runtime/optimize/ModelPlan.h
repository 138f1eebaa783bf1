// Optimize mode's decision from BBVs: the performance model prices the
// current thread order and each regrouping algorithm's, and the plan
// regroups only for a predicted gain of at least MinGain.
#pragma once
#include "optimize/RegroupPlan.h"

namespace divopt::rt {

RegroupPlan modelPlan(const KernelInfo &K, const LaunchBbvs &Bbvs, const std::string &Algorithm,
                      double MinGain);

} // namespace divopt::rt
