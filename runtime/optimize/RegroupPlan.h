// What optimize mode does with a launch of a kernel: regroup it (and how) or
// launch the original. Decided once per shape and cached when the BBVs come
// from a profile; per launch when the model predicts them from its inputs.
#pragma once
#include "launch/KernelRegistry.h"
#include "optimize/BbvSource.h"

#include <memory>
#include <string>
#include <vector>

namespace divopt::rt {

struct RegroupPlan {
  bool Regroup = false;
  std::string Algorithm;
  double PredictedGain = 0; // the decision's estimate (AlgorithmOutcome::decisionGain)
  double PlanMs = 0;        // host time spent deciding and regrouping
  // Where PlanMs went, for the verbose line: the source's stages ("profile
  // 0.2 ms", or the feature kernel, copy and prediction), then "classes 5.1
  // ms, model 1.0 ms, sorting 0.8 + 0.9 ms, ..." (an algorithm's time, D
  // included, + its evaluation); empty when no model was asked.
  std::string Stages;
  std::string Why;          // the decision in words
  std::vector<uint32_t> D;  // D[physical] = logical, when Regroup
  bool HaveBbvs = false;    // the source gave BBVs (else Why is its reason)
  bool PerLaunch = false;   // holds for this launch only (predicted BBVs)
  // The BBVs it was made from, and whether it is an earlier plan made from
  // the very same BBVs, taken again without pricing anything.
  std::shared_ptr<const LaunchProfile> From;
  bool Reused = false;
};

// The plan for launch L with BBVs from Source (unless DIVOPT_ALGORITHM names
// a model-free permutation). Previous: the last plan for this kernel and
// shape, reused (Reused set) when Source hands back the BBVs it was made from.
RegroupPlan planRegrouping(KernelInfo &K, const LaunchRequest &L, BbvSource &Source,
                           const RegroupPlan *Previous = nullptr);

// shuffle:SEED or identity: regroup without a model, to check that a
// kernel's results do not depend on thread order. False for other names.
bool modelFreePermutation(const std::string &Algorithm, uint64_t Threads,
                          std::vector<uint32_t> &D, std::string &Error);

} // namespace divopt::rt
