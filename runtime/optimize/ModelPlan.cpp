#include "optimize/ModelPlan.h"

namespace divopt::rt {

RegroupPlan modelPlan(const KernelInfo &, const LaunchProfile &, const std::string &Algorithm,
                      double) {
  RegroupPlan Plan;
  Plan.Why = "DIVOPT_ALGORITHM=" + Algorithm +
             " needs the performance model, which this build does not have yet";
  return Plan;
}

} // namespace divopt::rt
