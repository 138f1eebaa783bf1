#include "optimize/RegroupPlan.h"
#include "launch/RuntimeConfig.h"
#include "optimize/ModelPlan.h"

#include <chrono>
#include <cstdio>

namespace divopt::rt {

namespace {

double msSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start)
      .count();
}

} // namespace

RegroupPlan planRegrouping(KernelInfo &K, const LaunchRequest &L, BbvSource &Source) {
  auto Start = std::chrono::steady_clock::now();
  RegroupPlan Plan;
  Shape S = shapeOf(L.Grid, L.Block);
  uint64_t Threads = uint64_t(S[0]) * S[1] * S[2] * S[3] * S[4] * S[5];
  const std::string &Algorithm = config().Algorithm;
  std::string Error;
  if (Threads > UINT32_MAX) {
    Plan.Why = "more threads than a 32-bit redirection array can name";
  } else if (modelFreePermutation(Algorithm, Threads, Plan.D, Error)) {
    Plan.Regroup = Error.empty();
    Plan.Algorithm = Algorithm;
    Plan.Why = Error.empty() ? "DIVOPT_ALGORITHM=" + Algorithm + " (no model asked)" : Error;
  } else {
    LaunchBbvs B = Source.bbvsFor(K, L);
    if (B.Bbvs) {
      auto Regroup = std::chrono::steady_clock::now();
      Plan = modelPlan(K, *B.Bbvs, Algorithm, config().MinGain);
      Plan.HaveBbvs = true;
      if (!B.Breakdown.empty()) {
        char Took[32];
        std::snprintf(Took, sizeof Took, "%.2f ms", msSince(Regroup));
        Plan.Breakdown = B.Breakdown + ", model and regrouping " + Took;
      }
    } else {
      Plan.Why = B.Why;
    }
    Plan.PerLaunch = B.PerLaunch;
  }
  Plan.PlanMs = msSince(Start);
  return Plan;
}

} // namespace divopt::rt
