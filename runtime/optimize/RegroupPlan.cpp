#include "optimize/RegroupPlan.h"
#include "launch/RuntimeConfig.h"
#include "optimize/ModelPlan.h"

#include <chrono>

namespace divopt::rt {

RegroupPlan planRegrouping(const KernelInfo &K, const Shape &S) {
  auto Start = std::chrono::steady_clock::now();
  RegroupPlan Plan;
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
    std::string Why;
    if (const LaunchBbvs *P = profileBbvSource().bbvsFor(K, S, Why))
      Plan = modelPlan(K, *P, Algorithm, config().MinGain);
    else
      Plan.Why = Why;
  }
  Plan.PlanMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
  return Plan;
}

} // namespace divopt::rt
