#include "optimize/OptimizeLaunch.h"
#include "launch/DriverApi.h"
#include "launch/RuntimeConfig.h"
#include "optimize/RegroupPlan.h"

#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace divopt::rt {
namespace {

// A plan and, when it regroups, D on the device: computed and uploaded at
// the first launch of a shape, reused by every later one.
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

Decision &decisionFor(KernelInfo &K, const Shape &S) {
  static std::mutex Lock;
  static std::map<std::pair<const KernelInfo *, Shape>, std::unique_ptr<Decision>> Known;
  std::lock_guard<std::mutex> G(Lock);
  auto &Slot = Known[{&K, S}];
  if (!Slot) {
    Slot = std::make_unique<Decision>();
    Slot->Plan = planRegrouping(K, S);
    if (Slot->Plan.Regroup)
      upload(*Slot, K.Name);
    char Took[48];
    std::snprintf(Took, sizeof Took, " [decided in %.1f ms]", Slot->Plan.PlanMs);
    // The stages follow the total, which tool/BenchAppOutput.cpp parses.
    std::string Stages = Slot->Plan.Stages.empty() ? "" : " (" + Slot->Plan.Stages + ")";
    if (config().Verbose || !Slot->Plan.Regroup)
      warn((Slot->Plan.Regroup ? "regrouping " : "not regrouping ") + K.Name + " " + shapeText(S) +
           ": " + Slot->Plan.Why + Took + Stages);
  }
  return *Slot;
}

} // namespace

bool launchOptimized(KernelInfo &K, const LaunchRequest &L, cudaError_t &Result) {
  if (!K.RedirectClone)
    return false;
  Shape S = shapeOf(L.Grid, L.Block);
  Decision &Dec = decisionFor(K, S);
  if (!Dec.Plan.Regroup)
    return false;
  std::vector<void *> Args(L.Args, L.Args + K.Note.Params);
  void *D = Dec.DeviceD;
  Args.push_back(&D);
  CUresult R = driverApi()->LaunchKernel(K.RedirectClone, L.Grid.x, L.Grid.y, L.Grid.z, L.Block.x,
                                         L.Block.y, L.Block.z, unsigned(L.SharedMem),
                                         reinterpret_cast<CUstream>(L.Stream), Args.data(), nullptr);
  if (R != CUDA_SUCCESS)
    return false; // the original launch reports the error as it would have
  Result = cudaSuccess;
  return true;
}

} // namespace divopt::rt
