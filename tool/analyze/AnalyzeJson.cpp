#include "AnalyzeReport.h"
#include "common/JsonOutput.h"
#include "common/KernelFilter.h"

#include <nlohmann/json.hpp>

namespace divopt {
using nlohmann::json;

namespace {

json improvementJson(const Improvement &I, bool WithWarps) {
  json J = {{"bbv_weighted", I.BbvWeighted}, {"bbv_weighted_scheduled", I.BbvWeightedScheduled}};
  if (WithWarps)
    J["divergent_warps"] = I.DivergentWarps;
  return J;
}

json metricsJson(const LaunchMetrics &M) {
  return {{"warps", M.Warps},
          {"divergent_warps", M.DivergentWarps},
          {"divergent_warp_ratio", M.Warps ? double(M.DivergentWarps) / double(M.Warps) : 0.0},
          {"bbv_weighted", M.BbvWeighted},
          {"bbv_weighted_scheduled", M.BbvWeightedScheduled}};
}

json outcomeJson(const AlgorithmOutcome &O) {
  json J = metricsJson(O.After.Plain);
  J["improvement"] = improvementJson(O.Gain, true);
  json R = {{"bbv_weighted", O.After.Redirected.BbvWeighted},
            {"bbv_weighted_scheduled", O.After.Redirected.BbvWeightedScheduled},
            {"improvement", improvementJson(O.RedirectedGain, false)}};
  J["with_redirection"] = std::move(R);
  if (O.SmSharedGain)
    J["sm_shared_improvement"] = *O.SmSharedGain;
  if (O.SmPipesGain)
    J["sm_pipes_improvement"] = *O.SmPipesGain;
  J["seconds"] = O.Seconds;
  return J;
}

json launchJson(const LaunchAnalysis &L) {
  const RegroupDecision &D = L.Decision;
  json J;
  if (L.Header) {
    const LaunchHeader &H = *L.Header;
    J["kernel"] = H.Kernel;
    J["demangled"] = demangleKernel(H.Kernel);
    J["program"] = H.Program;
    J["pid"] = H.Pid;
    J["launch_index"] = H.LaunchIndex;
    J["grid"] = H.Grid;
    J["block"] = H.Block;
    J["regroup_safe"] = L.Kernel && L.Kernel->RegroupSafe;
  } else {
    J["bbvs"] = L.BbvSource;
  }
  J["threads"] = L.Threads;
  J["basic_blocks"] = L.BasicBlocks;
  J["distinct_bbvs"] = D.Classes;
  J["block_latency"] = L.BlockLatency;
  J["model"] = {{"block_size", L.BlockSize},
                {"sms", L.Gpu.SMs},
                {"occupancy", L.Gpu.Occupancy},
                {"occupancy_given", L.OccupancyGiven},
                {"slots", L.Gpu.slots()},
                {"group_size", L.GroupSize},
                {"min_improvement", L.MinImprovement},
                {"redirection", {{"per_warp", L.Price.PerWarp}, {"per_block", L.Price.PerBlock}}}};
  json Baseline = metricsJson(D.Baseline);
  if (L.Branches) {
    Baseline["divergent_branches"] = L.Branches->Divergent;
    Baseline["branch_executions"] = L.Branches->Executed;
    Baseline["divergent_branch_ratio"] = L.Branches->ratio();
    Baseline["branch_counted_blocks"] = L.Branches->CountedBlocks;
    Baseline["thread_blocks"] = L.Branches->ThreadBlocks;
  }
  J["baseline"] = std::move(Baseline);
  json Algorithms = json::object();
  for (const AlgorithmOutcome &O : D.Outcomes)
    Algorithms[algorithmKey(O.Algo)] = outcomeJson(O);
  J["algorithms"] = std::move(Algorithms);
  J["chosen"] = D.Chosen ? json(algorithmKey(D.Outcomes[*D.Chosen].Algo)) : json(nullptr);
  J["class_seconds"] = D.ClassSeconds;
  return J;
}

json latencyJson(const AnalyzeReport &R) {
  const LatencyProvenance &P = R.Latency.Provenance;
  return {{"origin", R.Latency.Origin},
          {"placeholder", R.Latency.Placeholder},
          {"provenance",
           {{"device", P.Device},
            {"compute_capability", P.ComputeCapability},
            {"driver", P.Driver},
            {"sm_clock_mhz", P.SmClockMHz},
            {"date", P.Date},
            {"method", P.Method}}},
          {"warnings", R.Guessed}};
}

} // namespace

void printAnalyzeJson(std::ostream &OS, const AnalyzeReport &R, bool SingleLaunch) {
  json J;
  if (SingleLaunch && R.Launches.size() == 1) {
    J = launchJson(R.Launches[0]);
  } else {
    J["launches"] = json::array();
    for (const LaunchAnalysis &L : R.Launches)
      J["launches"].push_back(launchJson(L));
  }
  J["latency"] = latencyJson(R);
  OS << jsonText(J, 2) << '\n';
}

} // namespace divopt
