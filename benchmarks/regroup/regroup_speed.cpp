// Host time of the regrouping algorithms (and of the shared steps the
// launch-time optimizer also pays: finding identical BBVs, one evaluation of
// the model) for N = 2^12..2^20 threads and 8..128 basic blocks, on the
// three shapes of SyntheticBbvs.h. Counters give each result's predicted
// improvement (BBV-weighted-scheduled, 132 SMs, blocks of 256, occupancy 8),
// and, where the search can afford to be exact, the exact search's: the cost
// of the fast algorithms' window and pieces.
//
//   bench-regroup-speed [--benchmark_filter=REGEX] [--benchmark_min_time=0.05]
#include "LaunchBenchmarks.h"
#include "SyntheticBbvs.h"
#include "model/BbvClasses.h"
#include "model/LaunchMetrics.h"
#include "regroup/ChooseRegrouping.h"
#include "regroup/Regrouping.h"

#include <benchmark/benchmark.h>

#include <limits>
#include <map>
#include <memory>
#include <string>

namespace {
using namespace divopt;

constexpr uint32_t BlockSize = 256;
const Machine Gpu{132, 8};

// One launch at a time: every benchmark of a launch runs before the next
// launch is made, so the cache never holds two (2^20 x 128 counts: 512 MiB).
struct Launch {
  bench::SyntheticBbvs Bbvs;
  BbvClasses Classes;
  LaunchMetrics Baseline;
};

const Launch &launch(const std::string &Shape, uint32_t Threads, uint32_t Blocks) {
  static std::string Key;
  static std::unique_ptr<Launch> Cached;
  std::string Want = Shape + "/" + std::to_string(Threads) + "/" + std::to_string(Blocks);
  if (Key != Want) {
    Cached.reset();
    Cached = std::make_unique<Launch>();
    Cached->Bbvs = bench::makeBbvs(Shape, Threads, Blocks);
    Cached->Classes = findClasses({Cached->Bbvs.Counts.data(), Threads, Blocks});
    Cached->Baseline =
        evaluate(Cached->Classes, Cached->Bbvs.Latency, nullptr, BlockSize, Gpu, {}).Plain;
    Key = Want;
  }
  return *Cached;
}

double scheduledGain(const Launch &L, const std::vector<uint32_t> &D) {
  LaunchMetrics After = evaluate(L.Classes, L.Bbvs.Latency, D.data(), BlockSize, Gpu, {}).Plain;
  return improvement(L.Baseline.BbvWeightedScheduled, After.BbvWeightedScheduled);
}

// The exact search (no window, one piece) costs O(classes^2) gains on
// launches of all-distinct BBVs; beyond this it is not run.
bool exactAffordable(const Launch &L) { return L.Classes.classes() <= (1u << 12); }

void registerLaunch(const std::string &Shape, uint32_t Threads, uint32_t Blocks) {
  auto Add = bench::launchBenchmarks(Shape, Threads, Blocks, launch);
  Add("classes", [](benchmark::State &S, const Launch &L) {
    for (auto _ : S)
      benchmark::DoNotOptimize(findClasses({L.Bbvs.Counts.data(), L.Bbvs.Threads, L.Bbvs.Blocks}));
    S.counters["classes"] = L.Classes.classes();
  });
  Add("model", [](benchmark::State &S, const Launch &L) {
    for (auto _ : S)
      benchmark::DoNotOptimize(
          evaluate(L.Classes, L.Bbvs.Latency, nullptr, BlockSize, Gpu, {}));
  });
  for (Algorithm A : allAlgorithms())
    Add(algorithmName(A), [A](benchmark::State &S, const Launch &L) {
      std::vector<uint32_t> D;
      for (auto _ : S)
        D = regroup(A, L.Classes, L.Bbvs.Latency, 32, {});
      S.counters["gain"] = scheduledGain(L, D);
      if (A != Algorithm::Sorting && exactAffordable(L)) {
        GreedyOptions Exact;
        Exact.Window = std::numeric_limits<uint32_t>::max();
        Exact.ChunkClasses = std::numeric_limits<uint32_t>::max();
        S.counters["exact_gain"] = scheduledGain(L, regroup(A, L.Classes, L.Bbvs.Latency, 32, Exact));
      }
    });
}

} // namespace

int main(int argc, char **argv) {
  // The loop shape over the whole grid; the other two at 64 blocks, distinct
  // BBVs only as far as the greedy algorithms finish in seconds.
  for (uint32_t LogN = 12; LogN <= 20; LogN += 2)
    for (uint32_t Blocks : {8u, 32u, 64u, 128u})
      registerLaunch("loop", 1u << LogN, Blocks);
  for (uint32_t LogN = 12; LogN <= 20; LogN += 2)
    registerLaunch("cases", 1u << LogN, 64);
  for (uint32_t LogN = 12; LogN <= 16; LogN += 2)
    registerLaunch("distinct", 1u << LogN, 64);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
