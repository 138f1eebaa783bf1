// Launching a kernel's feature-extraction clone (abi::FeatureCloneSuffix):
// profile mode records its output beside the counters, optimize mode predicts
// BBVs from it.
#pragma once
#include "launch/KernelRegistry.h"
#include "profile/ProfileLaunch.h"

namespace divopt::rt {

// Queues the clone on L's stream with L's grid and block; it fills
// Features[f * threads + t] (device memory, K.Note.Features.size() * threads
// doubles). K.FeatureClone must be set.
CUresult launchFeatureClone(const KernelInfo &K, const LaunchRequest &L, void *Features);

} // namespace divopt::rt
