#include "ReportJson.h"
#include "common/KernelFilter.h"

namespace divopt {
using nlohmann::json;

namespace {

json blockJson(const BlockStats &B) {
  return json{{"id", B.Id},
              {"name", B.Name},
              {"file", B.File},
              {"lines", {B.FirstLine, B.LastLine}},
              {"instructions", B.Instructions},
              {"executions", B.Executions},
              {"warp_max_sum", B.WarpMaxSum},
              {"warp_mean_sum", B.WarpMeanSum},
              // Undefined for a block no warp ran.
              {"simt_efficiency", B.executed() ? json(B.simtEfficiency()) : json(nullptr)},
              {"divergence_cost", B.DivergenceCost}};
}

json branchJson(const BranchStats &B) {
  return json{
      {"index", B.Index}, {"block", B.Block}, {"executed", B.Executed}, {"divergent", B.Divergent}};
}

json loopJson(const std::optional<LoopImbalance> &Loop) {
  if (!Loop)
    return nullptr;
  return json{{"block", Loop->Block},
              {"current_order", Loop->CurrentOrder},
              {"model_random_order", Loop->Model ? json(*Loop->Model) : json(nullptr)},
              {"sorted_order", Loop->SortedOrder}};
}

json launchJson(const LaunchReport &L) {
  const LaunchHeader &H = L.Header;
  const LaunchStats &S = L.Stats;
  json Blocks = json::array();
  for (const BlockStats &B : S.Blocks)
    Blocks.push_back(blockJson(B));
  json Branches = json::array();
  for (const BranchStats &B : S.Branches)
    Branches.push_back(branchJson(B));
  return json{{"kernel", H.Kernel},
              {"demangled", demangleKernel(H.Kernel)},
              {"program", H.Program},
              {"pid", H.Pid},
              {"launch_index", H.LaunchIndex},
              {"unix_time", H.UnixTime},
              {"device", H.Device},
              {"compute_capability", H.ComputeCapability},
              {"driver_version", H.DriverVersion},
              {"grid", H.Grid},
              {"block", H.Block},
              // From the profile's tally records; null without one.
              {"launches_made", L.Launches ? json(L.Launches->Seen) : json(nullptr)},
              {"launches_recorded", L.Launches ? json(L.Launches->Recorded) : json(nullptr)},
              {"threads", S.Threads},
              {"warps", S.Warps},
              {"basic_blocks", S.BasicBlocks},
              {"divergent_warps", S.DivergentWarps},
              {"divergent_warp_ratio", S.divergentWarpRatio()},
              {"branch_executions", S.BranchExecutions},
              {"divergent_branches", S.DivergentBranches},
              {"divergent_branch_ratio", S.divergentBranchRatio()},
              // Branch counts come from these thread blocks, scaled to all
              // when fewer (the profile clone's branch sampling).
              {"branch_counted_blocks", S.BranchCountedBlocks},
              {"thread_blocks", S.ThreadBlocks},
              {"divergence_cost", S.DivergenceCost},
              {"loop_imbalance", loopJson(L.Loop)},
              {"regroup", {{"safe", L.Regroup.Safe},
                           {"reason", L.Regroup.Reason},
                           {"line", L.Regroup.Line}}},
              {"branches", std::move(Branches)},
              {"blocks", std::move(Blocks)}};
}

} // namespace

json reportToJson(const std::vector<ProfileReport> &Profiles) {
  json Out = json::array();
  for (const ProfileReport &P : Profiles) {
    json Launches = json::array();
    for (const LaunchReport &L : P.Launches)
      Launches.push_back(launchJson(L));
    json Tallies = json::array();
    for (const TallyRecord &T : P.Tallies)
      for (const LaunchTally &E : T.Tallies)
        Tallies.push_back(json{{"program", T.Program},
                               {"pid", T.Pid},
                               {"kernel", E.Kernel},
                               {"demangled", demangleKernel(E.Kernel)},
                               {"grid", E.Grid},
                               {"block", E.Block},
                               {"made", E.Seen},
                               {"recorded", E.Recorded}});
    Out.push_back(json{
        {"file", P.Path}, {"launches", std::move(Launches)}, {"tallies", std::move(Tallies)}});
  }
  return json{{"profiles", std::move(Out)}};
}

} // namespace divopt
