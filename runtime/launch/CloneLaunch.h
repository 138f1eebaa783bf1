// Launching the clones the pass makes of a kernel: the redirected clone
// (abi::RedirectCloneSuffix), which optimize mode runs instead of the kernel,
// and the feature-extraction clone (abi::FeatureCloneSuffix), whose output
// profile mode records beside the counters and optimize mode predicts BBVs
// from. Both take the kernel's parameters and one hidden pointer.
#pragma once
#include "launch/KernelRegistry.h"
#include "profile/ProfileLaunch.h"

namespace divopt::rt {

// Queues Clone on L's stream with L's grid, block and shared memory, K's
// parameters from L, then Hidden.
CUresult launchClone(CUfunction Clone, const KernelInfo &K, const LaunchRequest &L, void *Hidden);

// The feature clone fills Features[f * threads + t] (device memory,
// K.Note.Features.size() * threads doubles). K.FeatureClone must be set.
inline CUresult launchFeatureClone(const KernelInfo &K, const LaunchRequest &L, void *Features) {
  return launchClone(K.FeatureClone, K, L, Features);
}

// The redirected clone runs logical thread D[p] at physical position p.
inline CUresult launchRedirected(const KernelInfo &K, const LaunchRequest &L, void *D) {
  return launchClone(K.RedirectClone, K, L, D);
}

} // namespace divopt::rt
