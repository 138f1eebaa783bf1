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

std::string stageText(const std::string &Stage, double Ms) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, " %.1f ms", Ms);
  return Stage + Buf;
}

RegroupPlan planRegrouping(KernelInfo &K, const LaunchRequest &L, BbvSource &Source,
                           const RegroupPlan *Previous) {
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
    if (B.Bbvs && Previous && Previous->From == B.Bbvs) {
      Plan = *Previous;
      Plan.Reused = true;
      Plan.Stages = B.Stages + ", the last launch's plan";
    } else if (B.Bbvs) {
      Plan = modelPlan(K, B, Algorithm, config().MinGain);
      Plan.HaveBbvs = true;
      Plan.From = B.Bbvs;
    } else {
      Plan.Why = B.Why;
    }
    if (!B.Stages.empty() && !Plan.Reused)
      Plan.Stages = B.Stages + (Plan.Stages.empty() ? "" : ", " + Plan.Stages);
    Plan.PerLaunch = B.PerLaunch;
  }
  Plan.PlanMs = msSince(Start);
  return Plan;
}

} // namespace divopt::rt
