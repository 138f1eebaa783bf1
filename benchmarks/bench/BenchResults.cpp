#include "BenchResults.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace divopt::bench {
using nlohmann::json;

const std::vector<std::string> &variantNames() {
  static const std::vector<std::string> Names = {"baseline", "sorting", "greedy",
                                                 "greedy-max", "auto", "model",
                                                 "online", "handwritten", "oracle"};
  return Names;
}

const std::vector<std::string> &predictedAlgorithms() {
  static const std::vector<std::string> Names = {"sorting", "greedy", "greedy-max"};
  return Names;
}

const std::vector<std::string> &skippableVariants() {
  static const std::vector<std::string> Names(variantNames().begin() + 1, variantNames().end());
  return Names;
}

std::string statusName(Status S) {
  switch (S) {
  case Status::Ok:
    return "ok";
  case Status::Fail:
    return "FAIL";
  case Status::Error:
    return "error";
  case Status::Skipped:
    return "skipped";
  }
  return "error";
}

double Prediction::divergentWarpRatio() const {
  return Warps ? double(DivergentWarps) / double(Warps) : 0.0;
}

double Prediction::divergentBranchRatio() const {
  return BranchExecutions ? double(DivergentBranches) / double(BranchExecutions) : 0.0;
}

const VariantResult *AppResult::variant(const std::string &Name) const {
  for (const VariantResult &V : Variants)
    if (V.Name == Name)
      return &V;
  return nullptr;
}

unsigned BenchResults::failures() const {
  unsigned N = 0;
  for (const AppResult &A : Apps)
    for (const VariantResult &V : A.Variants)
      N += V.State == Status::Fail;
  return N;
}

unsigned BenchResults::errors() const {
  unsigned N = 0;
  for (const AppResult &A : Apps) {
    N += !A.Error.empty();
    for (const VariantResult &V : A.Variants)
      N += V.State == Status::Error;
  }
  return N;
}

namespace {

json predictionJson(const Prediction &P) {
  if (!P.Present)
    return {{"present", false}, {"why", P.Why}};
  json Algorithms = json::object();
  for (const auto &[Name, A] : P.Algorithms) {
    Algorithms[Name] = {{"bbv_weighted", A.BbvWeighted},
                        {"bbv_weighted_scheduled", A.BbvWeightedScheduled},
                        {"bbv_weighted_scheduled_redirected", A.BbvWeightedScheduledRedirected},
                        {"divergent_warps", A.DivergentWarps}};
    if (A.BbvWeightedSmShared)
      Algorithms[Name]["bbv_weighted_sm_shared"] = *A.BbvWeightedSmShared;
    if (A.BbvWeightedSmPipes)
      Algorithms[Name]["bbv_weighted_sm_pipes"] = *A.BbvWeightedSmPipes;
    if (A.BbvWeightedSmChains)
      Algorithms[Name]["bbv_weighted_sm_chains"] = *A.BbvWeightedSmChains;
    if (A.BbvWeightedSmPipesWithoutLines)
      Algorithms[Name]["bbv_weighted_sm_pipes_without_lines"] = *A.BbvWeightedSmPipesWithoutLines;
  }
  json Out = {{"present", true},
          {"sms", P.SMs},
          {"occupancy", P.Occupancy},
          {"occupancy_source", P.OccupancySource},
          {"latency_table", P.LatencyTable},
          {"distinct_bbvs", P.DistinctBbvs},
          {"warps", P.Warps},
          {"divergent_warps", P.DivergentWarps},
          {"branch_executions", P.BranchExecutions},
          {"divergent_branches", P.DivergentBranches},
          {"improvement", Algorithms},
          {"auto_choice", P.AutoChoice.empty() ? json(nullptr) : json(P.AutoChoice)},
          {"warnings", P.Warnings}};
  if (P.SmPipesCyclesAsWritten) {
    Out["sm_pipes_cycles_as_written"] = *P.SmPipesCyclesAsWritten;
    Out["table_sm_clock_mhz"] = P.TableSmClockMHz;
  }
  return Out;
}

json variantJson(const VariantResult &V) {
  json J = {{"name", V.Name}, {"status", statusName(V.State)}, {"note", V.Note}};
  if (V.measured()) {
    J["times_ms"] = V.TimesMs;
    J["checksum"] = V.Checksum;
    J["overhead_ms"] = V.OverheadMs;
    J["regrouped"] = V.Regrouped;
  }
  if (!V.DerivedFrom.empty())
    J["derived_from"] = V.DerivedFrom;
  if (!V.Command.empty())
    J["command"] = V.Command;
  if (!V.PredictionCheck.empty())
    J["prediction_check"] = V.PredictionCheck;
  if (V.EndToEndMs)
    J["end_to_end_ms"] = *V.EndToEndMs;
  if (!V.Stderr.empty())
    J["stderr"] = V.Stderr;
  return J;
}

json appJson(const AppResult &A) {
  json Variants = json::array();
  for (const VariantResult &V : A.Variants)
    Variants.push_back(variantJson(V));
  json J = {{"app", A.App}, {"kernel", A.Kernel}, {"compute_bound", A.ComputeBound},
            {"threads", A.Threads}, {"size", A.Size}, {"seed", A.Seed},
            {"prediction", predictionJson(A.Predicted)}, {"variants", Variants},
            {"notes", A.Notes}};
  if (!A.Error.empty())
    J["error"] = A.Error;
  return J;
}

// Reading: every access names the file and the field that is wrong.
struct Reader {
  const std::string &Where;

  [[noreturn]] void bad(const std::string &Path, const std::string &Problem) const {
    throw std::runtime_error(Where + ": " + Path + ": " + Problem);
  }
  const json &get(const json &J, const std::string &Path, const char *Key) const {
    if (!J.is_object())
      bad(Path, "is not an object");
    auto It = J.find(Key);
    if (It == J.end())
      bad(Path + "." + Key, "missing");
    return *It;
  }
  template <typename T> T as(const json &J, const std::string &Path, const char *Key) const {
    const json &V = get(J, Path, Key);
    try {
      return V.get<T>();
    } catch (const json::exception &) {
      bad(Path + "." + Key, "has the wrong type (" + std::string(V.type_name()) + ")");
    }
  }
  template <typename T>
  T optional(const json &J, const char *Key, const std::string &Path, T Default) const {
    return J.is_object() && J.contains(Key) ? as<T>(J, Path, Key) : Default;
  }
};

Status statusFrom(const Reader &R, const std::string &Text, const std::string &Path) {
  for (Status S : {Status::Ok, Status::Fail, Status::Error, Status::Skipped})
    if (statusName(S) == Text)
      return S;
  R.bad(Path, "status \"" + Text + "\" is not ok, FAIL, error or skipped");
}

VariantResult variantFrom(const Reader &R, const json &J, const std::string &Path) {
  VariantResult V;
  V.Name = R.as<std::string>(J, Path, "name");
  V.State = statusFrom(R, R.as<std::string>(J, Path, "status"), Path + ".status");
  V.Note = R.optional<std::string>(J, "note", Path, "");
  V.DerivedFrom = R.optional<std::string>(J, "derived_from", Path, "");
  V.Command = R.optional<std::string>(J, "command", Path, "");
  V.PredictionCheck = R.optional<std::string>(J, "prediction_check", Path, "");
  V.Stderr = R.optional<std::string>(J, "stderr", Path, "");
  if (J.contains("end_to_end_ms") && !J["end_to_end_ms"].is_null()) {
    V.EndToEndMs = R.as<double>(J, Path, "end_to_end_ms");
    if (!(*V.EndToEndMs >= 0))
      R.bad(Path + ".end_to_end_ms", "is not a non-negative number of milliseconds");
  }
  if (V.measured()) {
    V.TimesMs = R.as<std::vector<double>>(J, Path, "times_ms");
    if (V.TimesMs.empty())
      R.bad(Path + ".times_ms", "is empty");
    V.Checksum = R.as<std::string>(J, Path, "checksum");
    V.OverheadMs = R.as<double>(J, Path, "overhead_ms");
    V.Regrouped = R.as<bool>(J, Path, "regrouped");
  }
  return V;
}

Prediction predictionFrom(const Reader &R, const json &J, const std::string &Path) {
  Prediction P;
  P.Present = R.as<bool>(J, Path, "present");
  if (!P.Present) {
    P.Why = R.optional<std::string>(J, "why", Path, "");
    return P;
  }
  P.SMs = R.as<uint32_t>(J, Path, "sms");
  P.Occupancy = R.as<uint32_t>(J, Path, "occupancy");
  P.OccupancySource = R.optional<std::string>(J, "occupancy_source", Path, "");
  P.LatencyTable = R.optional<std::string>(J, "latency_table", Path, "");
  P.DistinctBbvs = R.optional<uint32_t>(J, "distinct_bbvs", Path, 0);
  P.Warps = R.as<uint64_t>(J, Path, "warps");
  P.DivergentWarps = R.as<uint64_t>(J, Path, "divergent_warps");
  P.BranchExecutions = R.as<uint64_t>(J, Path, "branch_executions");
  P.DivergentBranches = R.as<uint64_t>(J, Path, "divergent_branches");
  const json &Improvement = R.get(J, Path, "improvement");
  if (!Improvement.is_object())
    R.bad(Path + ".improvement", "is not an object");
  for (const auto &[Name, A] : Improvement.items()) {
    std::string At = Path + ".improvement." + Name;
    AlgorithmPrediction X;
    X.BbvWeighted = R.as<double>(A, At, "bbv_weighted");
    X.BbvWeightedScheduled = R.as<double>(A, At, "bbv_weighted_scheduled");
    X.BbvWeightedScheduledRedirected =
        R.optional<double>(A, "bbv_weighted_scheduled_redirected", At, X.BbvWeightedScheduled);
    X.DivergentWarps = R.as<double>(A, At, "divergent_warps");
    if (A.contains("bbv_weighted_sm_shared"))
      X.BbvWeightedSmShared = R.as<double>(A, At, "bbv_weighted_sm_shared");
    if (A.contains("bbv_weighted_sm_pipes"))
      X.BbvWeightedSmPipes = R.as<double>(A, At, "bbv_weighted_sm_pipes");
    if (A.contains("bbv_weighted_sm_chains"))
      X.BbvWeightedSmChains = R.as<double>(A, At, "bbv_weighted_sm_chains");
    if (A.contains("bbv_weighted_sm_pipes_without_lines"))
      X.BbvWeightedSmPipesWithoutLines =
          R.as<double>(A, At, "bbv_weighted_sm_pipes_without_lines");
    P.Algorithms[Name] = X;
  }
  const json &Choice = R.get(J, Path, "auto_choice");
  P.AutoChoice = Choice.is_null() ? "" : R.as<std::string>(J, Path, "auto_choice");
  P.Warnings = R.optional<std::vector<std::string>>(J, "warnings", Path, {});
  if (J.contains("sm_pipes_cycles_as_written")) {
    P.SmPipesCyclesAsWritten = R.as<double>(J, Path, "sm_pipes_cycles_as_written");
    P.TableSmClockMHz = R.as<double>(J, Path, "table_sm_clock_mhz");
    if (P.TableSmClockMHz <= 0)
      R.bad(Path + ".table_sm_clock_mhz", "must be positive");
  }
  return P;
}

AppResult appFrom(const Reader &R, const json &J, const std::string &Path) {
  AppResult A;
  A.App = R.as<std::string>(J, Path, "app");
  std::string At = Path + "(" + A.App + ")";
  A.Error = R.optional<std::string>(J, "error", At, "");
  A.Kernel = R.optional<std::string>(J, "kernel", At, "");
  A.ComputeBound = R.optional<bool>(J, "compute_bound", At, false);
  A.Threads = R.optional<uint64_t>(J, "threads", At, 0);
  A.Size = R.optional<uint64_t>(J, "size", At, 0);
  A.Seed = R.optional<uint64_t>(J, "seed", At, 1);
  A.Notes = R.optional<std::vector<std::string>>(J, "notes", At, {});
  A.Predicted = J.contains("prediction") ? predictionFrom(R, J["prediction"], At + ".prediction")
                                         : Prediction{false, "not recorded"};
  const json &Variants = J.contains("variants") ? J["variants"] : json::array();
  if (!Variants.is_array())
    R.bad(At + ".variants", "is not an array");
  for (size_t I = 0; I < Variants.size(); ++I)
    A.Variants.push_back(
        variantFrom(R, Variants[I], At + ".variants[" + std::to_string(I) + "]"));
  return A;
}

} // namespace

json toJson(const BenchResults &R) {
  const Provenance &P = R.Prov;
  json Apps = json::array();
  for (const AppResult &A : R.Apps)
    Apps.push_back(appJson(A));
  return {{"format", "divopt-bench-1"},
          {"provenance",
           {{"device", P.Device},
            {"driver", P.Driver},
            {"compute_capability", P.ComputeCapability},
            {"sms", P.SMs},
            {"sm_clock", P.SmClock},
            {"commit", P.Commit},
            {"command", P.Command},
            {"date", P.Date},
            {"repeat", P.Repeat},
            {"size_scale", P.SizeScale}}},
          {"apps", Apps}};
}

BenchResults resultsFromJson(const json &J, const std::string &Where) {
  Reader R{Where};
  if (R.as<std::string>(J, "", "format") != "divopt-bench-1")
    R.bad("format", "is not divopt-bench-1");
  BenchResults Out;
  const json &P = R.get(J, "", "provenance");
  Provenance &V = Out.Prov;
  V.Device = R.as<std::string>(P, "provenance", "device");
  V.Driver = R.optional<std::string>(P, "driver", "provenance", "");
  V.ComputeCapability = R.optional<std::string>(P, "compute_capability", "provenance", "");
  V.SMs = R.optional<uint32_t>(P, "sms", "provenance", 0);
  V.SmClock = R.optional<std::string>(P, "sm_clock", "provenance", "");
  V.Commit = R.optional<std::string>(P, "commit", "provenance", "");
  V.Command = R.optional<std::string>(P, "command", "provenance", "");
  V.Date = R.optional<std::string>(P, "date", "provenance", "");
  V.Repeat = R.optional<int>(P, "repeat", "provenance", 0);
  V.SizeScale = R.optional<double>(P, "size_scale", "provenance", 1.0);
  const json &Apps = R.get(J, "", "apps");
  if (!Apps.is_array())
    R.bad("apps", "is not an array");
  for (size_t I = 0; I < Apps.size(); ++I)
    Out.Apps.push_back(appFrom(R, Apps[I], "apps[" + std::to_string(I) + "]"));
  return Out;
}

BenchResults readResults(const std::string &Path) {
  std::ifstream In(Path);
  if (!In)
    throw std::runtime_error(Path + ": cannot open the results file");
  json J;
  try {
    J = json::parse(In);
  } catch (const json::parse_error &E) {
    throw std::runtime_error(Path + ": not JSON: " + E.what());
  }
  return resultsFromJson(J, Path);
}

void writeResults(const std::string &Path, const BenchResults &R) {
  // Whole or not at all: a run killed while writing leaves the last file.
  std::string Part = Path + ".part";
  {
    std::ofstream Out(Part);
    Out << toJson(R).dump(2) << '\n';
    if (!Out.flush())
      throw std::runtime_error(Part + ": cannot write the results");
  }
  std::error_code Error;
  std::filesystem::rename(Part, Path, Error);
  if (Error)
    throw std::runtime_error(Path + ": cannot write the results (" + Error.message() + ")");
}

} // namespace divopt::bench
