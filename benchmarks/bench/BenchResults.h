// Everything `divopt bench` measured, as it is written to and read back from
// the results JSON (docs/bench.md describes the file). The report and the
// plots are computed from this alone, so `--from-json` renders them again
// without a GPU.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace divopt::bench {

// Variant names, in report order. baseline: the original kernel, divopt off.
// sorting, greedy, greedy-max, auto: optimize mode guided by the exact
// profile of this input. model: optimize mode guided by `divopt fit` on
// another seed. online: optimize mode with neither profile nor model (the
// runtime decides on the GPU). handwritten: the app's own CUB-sorted
// regrouping. oracle: the fastest of sorting, greedy and greedy-max (derived,
// not run).
const std::vector<std::string> &variantNames();
// The regrouping algorithms the model predicts (Table V, Figs. 7 and 8).
const std::vector<std::string> &predictedAlgorithms();
// Variants --skip-variants may name: all but baseline.
const std::vector<std::string> &skippableVariants();

enum class Status { Ok, Fail, Error, Skipped };

// The most of a variant's stderr results.json keeps (its tail).
constexpr size_t MaxKeptStderr = 64 * 1024;
std::string statusName(Status S); // "ok", "FAIL", "error", "skipped"

struct VariantResult {
  std::string Name;
  Status State = Status::Ok;
  std::string Note; // why it failed or was skipped; the runtime's decision
  std::vector<double> TimesMs;
  std::string Checksum;
  double OverheadMs = 0; // the runtime's "[decided in X ms]", or the app's regroup_ms
  bool Regrouped = false; // the redirected kernel (or the hand-written permutation) ran
  std::string DerivedFrom; // oracle: the variant whose numbers it copies
  std::string Command;     // how the harness ran it
  // model: how the model predicted seed 1's BBVs (`divopt fit --check` on
  // the profile of seed 1), e.g. "1 launch, ... mean absolute BBV error ..."
  std::string PredictionCheck;
  // baseline and online (run with --end-to-end): the host wall time of the
  // first `repeat` launches issued back to back, every overhead included.
  std::optional<double> EndToEndMs;
  // online: the app's stderr under DIVOPT_VERBOSE=1 (the runtime's summary),
  // raw; the last MaxKeptStderr bytes when longer.
  std::string Stderr;
  bool measured() const { return State == Status::Ok || State == Status::Fail; }
};

// The model's improvement, as a fraction of the baseline estimate, for one
// algorithm (runtime/model/LaunchMetrics.h: improvement()).
struct AlgorithmPrediction {
  double BbvWeighted = 0;
  double BbvWeightedScheduled = 0;
  double BbvWeightedScheduledRedirected = 0; // with the price of the redirection
  double DivergentWarps = 0;
  // model/SmSharedMetric.h (not in seed 002); none in results written before it.
  std::optional<double> BbvWeightedSmShared;
  // SM-pipes: SM-shared with the pipes and lines (ours, issue 16); none in
  // results written before it.
  std::optional<double> BbvWeightedSmPipes;
  // The breakdown by term: SM-shared with the dependence chains, then with
  // the pipes too (SM-pipes without its lines).
  std::optional<double> BbvWeightedSmChains;
  std::optional<double> BbvWeightedSmPipesWithoutLines;
};

struct Prediction {
  bool Present = false;
  std::string Why; // when absent
  uint32_t SMs = 0, Occupancy = 0;
  std::string OccupancySource;
  std::string LatencyTable;
  uint32_t DistinctBbvs = 0;
  uint64_t Warps = 0, DivergentWarps = 0;
  uint64_t BranchExecutions = 0, DivergentBranches = 0;
  std::map<std::string, AlgorithmPrediction> Algorithms; // by variant name
  std::string AutoChoice; // the algorithm auto would pick; empty: keep the original
  // SM-pipes' time for the launch as written, in cycles of the latency
  // table's SM clock (MHz): against the measured time it shows what the
  // model leaves out or overprices; none in results written before it.
  std::optional<double> SmPipesCyclesAsWritten;
  double TableSmClockMHz = 0;
  std::vector<std::string> Warnings;
  double divergentWarpRatio() const;
  double divergentBranchRatio() const;
};

struct AppResult {
  std::string App;
  std::string Error; // the app could not be measured at all
  std::string Kernel;
  bool ComputeBound = false;
  uint64_t Threads = 0, Size = 0, Seed = 1;
  Prediction Predicted;
  std::vector<VariantResult> Variants; // variantNames() order
  std::vector<std::string> Notes;
  const VariantResult *variant(const std::string &Name) const;
};

struct Provenance {
  std::string Device, Driver, ComputeCapability, SmClock, Commit, Command, Date;
  uint32_t SMs = 0;
  int Repeat = 0;
  double SizeScale = 1;
};

struct BenchResults {
  Provenance Prov;
  std::vector<AppResult> Apps;
  // Variants whose checksum differed from the baseline's, and apps or
  // variants that could not run.
  unsigned failures() const;
  unsigned errors() const;
};

nlohmann::json toJson(const BenchResults &R);
// Throws std::runtime_error naming Where and the field that is wrong.
BenchResults resultsFromJson(const nlohmann::json &J, const std::string &Where);
BenchResults readResults(const std::string &Path);
void writeResults(const std::string &Path, const BenchResults &R);

} // namespace divopt::bench
