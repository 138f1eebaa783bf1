// What optimize mode does with one launch shape of a kernel: regroup it (and
// how) or launch the original, decided once per shape and cached.
#pragma once
#include "launch/KernelRegistry.h"
#include "optimize/BbvSource.h"

#include <string>
#include <vector>

namespace divopt::rt {

struct RegroupPlan {
  bool Regroup = false;
  std::string Algorithm;
  double PredictedGain = 0; // scheduled metric, redirection price included
  double PlanMs = 0;        // host time spent deciding and regrouping
  std::string Why;          // the decision in words
  std::vector<uint32_t> D;  // D[physical] = logical, when Regroup
};

RegroupPlan planRegrouping(const KernelInfo &K, const Shape &S);

// shuffle:SEED or identity: regroup without a model, to check that a
// kernel's results do not depend on thread order. False for other names.
bool modelFreePermutation(const std::string &Algorithm, uint64_t Threads,
                          std::vector<uint32_t> &D, std::string &Error);

} // namespace divopt::rt
