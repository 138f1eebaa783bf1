// Speed of the exact imbalance model on the CPU (seed 001 section III-B),
// through Google Benchmark (its repetitions, statistics and output formats):
//   TableI/DIST/n=N        one row of Table I modelled; counters: the model's
//                          mean, the paper's mu_A, |supp W|, outcomes
//   TableI/all             every distribution built and all 25 rows modelled,
//                          what a user of `divopt imbalance` waits for
//   MonteCarlo/DIST/n=N    the row simulated (MT19937, seed 2022) with enough
//                          groups that 0.1% is four standard errors; counter
//                          rel_error_pct against the model (--no-monte-carlo: none)
//   Growth/n/N             W = uniform:1,64, n = 2..256
//   Growth/support/A       W = uniform:1,A, n = 32, A = 16..1024
// Growth counters: the dynamic program's multiply-adds (O(n^3 |supp W|^2)),
// the paper's O(n |supp W|^2) bound, the outcomes, and seconds per
// multiply-add; each family ends with Google Benchmark's fitted complexity.
//
//   bench-imbalance-model [--no-monte-carlo] [--benchmark_filter=REGEX] [...]
// The model runs on one thread; the simulation on every hardware thread.
#include "imbalance/DistributionSpec.h"
#include "imbalance/ImbalanceModel.h"
#include "imbalance/MonteCarlo.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <string>

using namespace divopt::imbalance;

namespace {

struct Row {
  const char *Spec;
  unsigned N;
  double PaperMuA;
};

const Row TableI[] = {
    {"binomial:40,0.5", 2, 1.090},    {"binomial:40,0.5", 4, 1.163},
    {"binomial:40,0.5", 8, 1.225},    {"binomial:40,0.5", 16, 1.278},
    {"binomial:40,0.5", 32, 1.325},   {"geometric:0.05", 2, 1.476},
    {"geometric:0.05", 4, 2.047},     {"geometric:0.05", 8, 2.668},
    {"geometric:0.05", 16, 3.317},    {"geometric:0.05", 32, 3.979},
    {"poisson:30", 2, 1.104},         {"poisson:30", 4, 1.191},
    {"poisson:30", 8, 1.268},         {"poisson:30", 16, 1.335},
    {"poisson:30", 32, 1.397},        {"uniform:20,40", 2, 1.118},
    {"uniform:20,40", 4, 1.213},      {"uniform:20,40", 8, 1.275},
    {"uniform:20,40", 16, 1.309},     {"uniform:20,40", 32, 1.326},
    {"negbinomial:5,0.3", 2, 1.301},  {"negbinomial:5,0.3", 4, 1.587},
    {"negbinomial:5,0.3", 8, 1.860},  {"negbinomial:5,0.3", 16, 2.123},
    {"negbinomial:5,0.3", 32, 2.375},
};

std::string rowName(const char *Family, const Row &R) {
  return std::string(Family) + "/" + R.Spec + "/n=" + std::to_string(R.N);
}

void modelRow(benchmark::State &State, const Row &R) {
  WorkDistribution W = parseDistribution(R.Spec, 1e-6);
  double Mean = 0;
  size_t Outcomes = 0;
  for (auto _ : State) {
    LossDistribution L = modelImbalance(W, R.N);
    Mean = L.mean();
    Outcomes = L.outcomes().size();
  }
  State.counters["mean"] = Mean;
  State.counters["paper_mu_A"] = R.PaperMuA;
  State.counters["supp"] = double(W.Mass.size());
  State.counters["outcomes"] = double(Outcomes);
}

void modelAllRows(benchmark::State &State) {
  for (auto _ : State)
    for (const Row &R : TableI)
      benchmark::DoNotOptimize(modelImbalance(parseDistribution(R.Spec, 1e-6), R.N));
}

void simulateRow(benchmark::State &State, const Row &R) {
  WorkDistribution W = parseDistribution(R.Spec, 1e-6);
  LossDistribution L = modelImbalance(W, R.N);
  double Cv = std::sqrt(L.variance()) / L.mean();
  uint64_t Groups = uint64_t(std::ceil(std::pow(4 * Cv / 1e-3, 2)));
  double Simulated = 0;
  for (auto _ : State)
    Simulated = simulateImbalance(W, R.N, Groups, 2022).Mean;
  State.counters["groups"] = double(Groups);
  State.counters["rel_error_pct"] = 100 * std::fabs(Simulated - L.mean()) / L.mean();
}

// W = uniform:1,A with n threads per group; X is the benchmark's argument.
void growth(benchmark::State &State, bool OverN) {
  unsigned X = unsigned(State.range(0));
  unsigned N = OverN ? X : 32, A = OverN ? 64 : X;
  WorkDistribution W = parseDistribution("uniform:1," + std::to_string(A), 1e-6);
  ModelCost Cost = estimateModelCost(W, N);
  size_t Outcomes = 0;
  for (auto _ : State)
    Outcomes = modelImbalance(W, N).outcomes().size();
  State.SetComplexityN(X);
  State.counters["mul_adds"] = Cost.MultiplyAdds;
  State.counters["n_supp2"] = double(N) * double(A) * double(A);
  State.counters["outcomes"] = double(Outcomes);
  State.counters["s_per_mul_add"] =
      benchmark::Counter(Cost.MultiplyAdds, benchmark::Counter::kIsIterationInvariantRate |
                                                benchmark::Counter::kInvert);
}

} // namespace

int main(int argc, char **argv) {
  bool MonteCarlo = true;
  if (argc > 1 && std::strcmp(argv[1], "--no-monte-carlo") == 0) {
    MonteCarlo = false;
    argv[1] = argv[0];
    --argc;
    ++argv;
  }
  for (const Row &R : TableI)
    benchmark::RegisterBenchmark(rowName("TableI", R).c_str(), modelRow, R)
        ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("TableI/all", modelAllRows)->Unit(benchmark::kMillisecond);
  if (MonteCarlo)
    for (const Row &R : TableI)
      benchmark::RegisterBenchmark(rowName("MonteCarlo", R).c_str(), simulateRow, R)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime()
          ->Iterations(1);
  benchmark::RegisterBenchmark("Growth/n", growth, true)
      ->RangeMultiplier(2)
      ->Range(2, 256)
      ->Unit(benchmark::kMillisecond)
      ->Complexity(benchmark::oAuto);
  benchmark::RegisterBenchmark("Growth/support", growth, false)
      ->RangeMultiplier(2)
      ->Range(16, 1024)
      ->Unit(benchmark::kMillisecond)
      ->Complexity(benchmark::oAuto);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
