// Launching the clones the pass makes of a kernel: the redirected clone
// (abi::RedirectCloneSuffix), which optimize mode runs instead of the kernel,
// the cost clone (abi::CostCloneSuffix), which also runs instead of the kernel
// and prices each thread's run, and the feature-extraction clone
// (abi::FeatureCloneSuffix), whose output profile mode records beside the
// counters and optimize mode predicts BBVs from. All take the kernel's
// parameters followed by hidden ones (divopt/Abi.h).
#pragma once
#include "launch/KernelRegistry.h"
#include "profile/ProfileLaunch.h"

#include <cstddef>
#include <initializer_list>
#include <vector>

namespace divopt::rt {

// The most hidden parameters a clone takes (the cost clone's two).
inline constexpr size_t MaxHiddenParams = 2;

// Queues Clone on L's stream with L's grid, block and shared memory, K's
// parameters from L, then the hidden ones: Hidden holds the address of each
// one's value, as cuLaunchKernel takes them (a by-value array: its first
// element).
CUresult launchClone(CUfunction Clone, const KernelInfo &K, const LaunchRequest &L,
                     std::initializer_list<const void *> Hidden);

// The feature clone fills Features[f * threads + t] (device memory,
// K.Note.Features.size() * threads doubles). K.FeatureClone must be set.
inline CUresult launchFeatureClone(const KernelInfo &K, const LaunchRequest &L, void *Features) {
  return launchClone(K.FeatureClone, K, L, {&Features});
}

// The redirected clone runs logical thread D[p] at physical position p.
inline CUresult launchRedirected(const KernelInfo &K, const LaunchRequest &L, void *D) {
  return launchClone(redirectClone(K), K, L, {&D});
}

// The cost clone computes K's results and writes Cost[t] for global linear
// thread id t (device memory, one float per thread): the sum of Weights[b]
// (one per block of K.Note, passed by value) over every block execution of
// thread t. costClone(K) must have found it.
inline CUresult launchCostClone(const KernelInfo &K, const LaunchRequest &L,
                                const std::vector<float> &Weights, float *Cost) {
  return launchClone(costClone(K), K, L, {Weights.data(), &Cost});
}

} // namespace divopt::rt
