#include "optimize/OptimizeLaunch.h"
#include "launch/CloneLaunch.h"
#include "launch/DriverApi.h"
#include "launch/RuntimeConfig.h"
#include "online/OnlineLaunch.h"
#include "optimize/RegroupPlan.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

namespace divopt::rt {
namespace {

// A plan from a profile and, when it regroups, D on the device: computed and
// uploaded at the first launch of a shape, reused by every later one.
struct Decision {
  RegroupPlan Plan;
  void *DeviceD = nullptr;
};

void upload(Decision &Dec, const std::string &Kernel) {
  size_t Bytes = Dec.Plan.D.size() * sizeof(uint32_t);
  // Synchronous and once per shape: later launches on any stream find D ready.
  if (cudaMalloc(&Dec.DeviceD, Bytes) != cudaSuccess ||
      cudaMemcpy(Dec.DeviceD, Dec.Plan.D.data(), Bytes, cudaMemcpyHostToDevice) != cudaSuccess) {
    cudaGetLastError();
    if (Dec.DeviceD)
      cudaFree(Dec.DeviceD);
    Dec.DeviceD = nullptr;
    Dec.Plan.Regroup = false;
    Dec.Plan.Why = "cannot place the " + std::to_string(Bytes) + "-byte redirection array on the GPU";
    warn("not regrouping " + Kernel + ": " + Dec.Plan.Why + "; running the original");
  }
}

void report(const KernelInfo &K, const Shape &S, const RegroupPlan &Plan, double Ms) {
  char Took[48];
  std::snprintf(Took, sizeof Took, " [decided in %.1f ms]", Ms);
  warn((Plan.Regroup ? "regrouping " : "not regrouping ") + K.Name + " " + shapeText(S) + ": " +
       Plan.Why + Took + (Plan.Stages.empty() ? "" : " (" + Plan.Stages + ")"));
}

// With BBVs from a profile (or none), one plan per shape. ModelProblem: why
// the model did not apply, the better reason when no profile is given either.
Decision &decisionFor(KernelInfo &K, const LaunchRequest &L, const std::string &ModelProblem) {
  static std::mutex Lock;
  static std::map<std::pair<const KernelInfo *, Shape>, std::unique_ptr<Decision>> Known;
  Shape S = shapeOf(L.Grid, L.Block);
  std::lock_guard<std::mutex> G(Lock);
  auto &Slot = Known[{&K, S}];
  if (!Slot) {
    Slot = std::make_unique<Decision>();
    Slot->Plan = planRegrouping(K, L, profileBbvSource());
    if (!Slot->Plan.HaveBbvs && !ModelProblem.empty() && config().ProfileUse.empty())
      Slot->Plan.Why = ModelProblem;
    if (Slot->Plan.Regroup)
      upload(*Slot, K.Name);
    if (config().Verbose || !Slot->Plan.Regroup)
      report(K, S, Slot->Plan, Slot->Plan.PlanMs);
  }
  return *Slot;
}

// Once per kernel and shape, so that a loop of launches the model declines
// does not flood stderr (DIVOPT_VERBOSE=1 shows every launch).
bool firstTime(const KernelInfo &K, const Shape &S) {
  static std::mutex Lock;
  static std::set<std::pair<const KernelInfo *, Shape>> Seen;
  std::lock_guard<std::mutex> G(Lock);
  return Seen.insert({&K, S}).second;
}

// Why the model cannot serve K, once per kernel, when the profile takes over
// (without one, the "not regrouping" line gives the reason).
void warnModelOnce(const KernelInfo &K, const std::string &Why) {
  static std::mutex Lock;
  static std::set<const KernelInfo *> Warned;
  std::lock_guard<std::mutex> G(Lock);
  if (Warned.insert(&K).second && !config().ProfileUse.empty())
    warn("not predicting the BBVs of " + K.Name + ": " + Why + "; using DIVOPT_PROFILE_USE " +
         config().ProfileUse);
}

// With BBVs the model predicts from this launch's inputs: a plan per launch,
// except that a launch with the same inputs as the last one of its kernel and
// shape takes that launch's plan and D again (the model source hands back the
// same BBVs). D stays on the GPU until a new plan replaces it. Handled false:
// the model could not predict (Problem says why), try the profile.
bool launchPredicted(KernelInfo &K, const LaunchRequest &L, cudaError_t &Result, bool &Handled,
                     std::string &Problem) {
  struct Last {
    RegroupPlan Plan; // its D emptied once on the GPU
    void *DeviceD = nullptr;
  };
  static std::mutex Lock;
  static std::map<std::pair<const KernelInfo *, Shape>, Last> Recent;
  auto Start = std::chrono::steady_clock::now();
  Shape S = shapeOf(L.Grid, L.Block);
  // Held through the launch, so that no thread frees a D another launches with.
  std::lock_guard<std::mutex> G(Lock);
  Last &Before = Recent[{&K, S}];
  RegroupPlan Plan =
      planRegrouping(K, L, modelBbvSource(), Before.Plan.From ? &Before.Plan : nullptr);
  // No BBVs: the prediction failed, or DIVOPT_ALGORITHM names a model-free
  // permutation; the per-shape path serves both.
  Handled = Plan.HaveBbvs;
  if (!Handled) {
    if (Plan.PerLaunch) {
      Problem = Plan.Why;
      warnModelOnce(K, Problem);
    }
    return false;
  }
  void *D = Before.DeviceD;
  if (!Plan.Reused) {
    if (Before.DeviceD)
      cudaFree(Before.DeviceD); // waits for the launches that read it
    D = nullptr;
    if (Plan.Regroup) {
      auto Upload = std::chrono::steady_clock::now();
      size_t Bytes = Plan.D.size() * sizeof(uint32_t);
      if (cudaMalloc(&D, Bytes) != cudaSuccess ||
          cudaMemcpy(D, Plan.D.data(), Bytes, cudaMemcpyHostToDevice) != cudaSuccess) {
        cudaGetLastError();
        if (D)
          cudaFree(D);
        D = nullptr;
        Plan.Regroup = false;
        Plan.Why = "cannot place the " + std::to_string(Bytes) + "-byte redirection array on the GPU";
      }
      char Took[48];
      std::snprintf(Took, sizeof Took, ", upload %.2f ms",
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                              Upload)
                        .count());
      Plan.Stages += Took;
    }
    Before.Plan = Plan;
    Before.Plan.D.clear();
    Before.DeviceD = D;
  }
  double Ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
  if (config().Verbose || (!Plan.Regroup && firstTime(K, S)))
    report(K, S, Plan, Ms);
  if (!Plan.Regroup)
    return false;
  if (launchRedirected(K, L, D) != CUDA_SUCCESS)
    return false; // the original launch reports the error as it would have
  Result = cudaSuccess;
  return true;
}

} // namespace

bool launchOptimized(KernelInfo &K, const LaunchRequest &L, cudaError_t &Result) {
  if (!K.Note.RegroupSafe || (onlineMode(config()) && runsAsWritten(K, L)))
    return false;
  std::string ModelProblem;
  if (modelBbvSource().covers(K, ModelProblem)) {
    bool Handled = false;
    bool Launched = launchPredicted(K, L, Result, Handled, ModelProblem);
    if (Handled)
      return Launched;
  } else if (!ModelProblem.empty()) {
    warnModelOnce(K, ModelProblem);
  }
  // Decide online, on the GPU: with neither profile nor model for any of
  // the GPU's algorithms, and with a profile for auto (its costs replace the
  // cost clone where it holds the shape). A named algorithm with a profile
  // runs the paper's exact host version on the profile's BBVs, as does a
  // model-free permutation (identity, shuffle). A model that cannot serve K
  // and no profile: it says why and runs the original.
  if (onlineMode(config()) && launchOnline(K, L, Result))
    return true;
  Decision &Dec = decisionFor(K, L, ModelProblem);
  if (!Dec.Plan.Regroup)
    return false;
  if (launchRedirected(K, L, Dec.DeviceD) != CUDA_SUCCESS)
    return false; // the original launch reports the error as it would have
  Result = cudaSuccess;
  return true;
}

} // namespace divopt::rt
