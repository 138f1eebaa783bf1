#include "optimize/RegroupPlan.h"
#include "launch/RuntimeConfig.h"
#include "optimize/ModelPlan.h"

#include <chrono>
#include <cstdio>

namespace divopt::rt {
namespace {

double millisecondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
}

} // namespace

std::string stageText(const std::string &Stage, double Ms) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, " %.1f ms", Ms);
  return Stage + Buf;
}

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
    const LaunchBbvs *P = profileBbvSource().bbvsFor(K, S, Why);
    double ProfileMs = millisecondsSince(Start);
    if (P)
      Plan = modelPlan(K, *P, Algorithm, config().MinGain);
    else
      Plan.Why = Why;
    Plan.Stages = stageText("profile", ProfileMs) + (Plan.Stages.empty() ? "" : ", ") + Plan.Stages;
  }
  Plan.PlanMs = millisecondsSince(Start);
  return Plan;
}

} // namespace divopt::rt
