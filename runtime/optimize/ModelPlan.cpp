#include "optimize/ModelPlan.h"
#include "launch/DriverApi.h"
#include "launch/RuntimeConfig.h"
#include "latency/BlockPricing.h"
#include "optimize/DeviceLatencyTable.h"
#include "regroup/ChooseRegrouping.h"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <mutex>

namespace divopt::rt {
namespace {

// SMs of this GPU and how many blocks of the clone one SM holds at once.
Machine machineFor(const KernelInfo &K, const LaunchHeader &H) {
  Machine M;
  int Device = 0, SMs = 0;
  if (cudaGetDevice(&Device) == cudaSuccess &&
      cudaDeviceGetAttribute(&SMs, cudaDevAttrMultiProcessorCount, Device) == cudaSuccess)
    M.SMs = uint32_t(SMs);
  int Blocks = 0;
  const DriverApi *D = driverApi();
  if (D && D->OccupancyMaxActiveBlocksPerMultiprocessor &&
      D->OccupancyMaxActiveBlocksPerMultiprocessor(&Blocks, redirectClone(K),
                                                   int(H.threadsPerBlock()), 0) == CUDA_SUCCESS &&
      Blocks > 0)
    M.Occupancy = uint32_t(Blocks);
  return M;
}

std::string percent(double F) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.1f%%", 100 * F);
  return Buf;
}

} // namespace

RegroupPlan modelPlan(const KernelInfo &K, const LaunchBbvs &Bbvs, const std::string &Algorithm,
                      double MinGain) {
  RegroupPlan Plan;
  bool Auto = Algorithm == "auto";
  auto Forced = parseAlgorithm(Algorithm);
  if (!Auto && !Forced) {
    Plan.Why = "DIVOPT_ALGORITHM=" + Algorithm +
               " is not auto, sorting, greedy, greedy-max, identity or shuffle:SEED" +
               std::string(Algorithm == "chunked" || Algorithm == "in-block"
                               ? " (" + Algorithm + " is online mode's alone)"
                               : "");
    return Plan;
  }
  RegroupRequest R;
  const LaunchProfile &L = *Bbvs.Bbvs;
  R.Bbv = Bbvs.Bbv;
  R.BlockSize = uint32_t(L.Header.threadsPerBlock());
  R.BlockLatency = priceBlocks(L.Kernel, latencyTable()).Cycles;
  R.BlockInstructions = instructionsPerBlock(L.Kernel);
  R.Gpu = machineFor(K, L.Header);
  R.Price = priceRedirection(latencyTable(), tidAccessesPerBlock(L.Kernel));
  R.MinImprovement = MinGain;
  if (Forced) {
    R.Algorithms = {*Forced};
    R.MaxGreedyClasses = 0; // asked for by name: run it however slow
  }
  RegroupDecision Decision;
  try {
    Decision = chooseRegrouping(R);
  } catch (const std::exception &E) {
    Plan.Why = std::string("the model cannot take this launch: ") + E.what();
    return Plan;
  }
  Plan.Stages = stageText("classes", 1e3 * Decision.ClassSeconds) + ", " +
                stageText("model", 1e3 * Decision.ModelSeconds);
  for (const AlgorithmOutcome &O : Decision.Outcomes) {
    char Buf[64];
    std::snprintf(Buf, sizeof Buf, " %.1f + %.1f ms", 1e3 * O.Seconds, 1e3 * O.ModelSeconds);
    Plan.Stages += ", " + algorithmName(O.Algo) + Buf;
  }
  std::string Predicted;
  for (const AlgorithmOutcome &O : Decision.Outcomes)
    Predicted += (Predicted.empty() ? "" : ", ") + algorithmName(O.Algo) + " " +
                 percent(O.decisionGain());
  // A forced algorithm runs whatever the model predicts; auto needs MinGain.
  if (Forced && !Decision.Outcomes.empty())
    Decision.Chosen = 0;
  if (!Decision.Chosen) {
    Plan.Why = "predicted gains (" + Predicted + ") below DIVOPT_MIN_GAIN " + percent(MinGain);
    return Plan;
  }
  AlgorithmOutcome &Best = Decision.Outcomes[*Decision.Chosen];
  Plan.Regroup = true;
  Plan.Algorithm = algorithmName(Best.Algo);
  Plan.PredictedGain = Best.decisionGain();
  Plan.D = std::move(Best.D);
  Plan.Why = Plan.Algorithm + (Auto ? "" : " (forced)") + ", predicted gains: " + Predicted +
             "; " + std::to_string(Decision.Classes) + " distinct BBVs, " +
             std::to_string(R.Gpu.SMs) + " SMs x " + std::to_string(R.Gpu.Occupancy) + " blocks";
  return Plan;
}

} // namespace divopt::rt
