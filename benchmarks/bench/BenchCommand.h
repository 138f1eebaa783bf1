// divopt bench [--apps LIST] [--repeat N] [--out DIR] [--size-scale F]
//              [--skip-variants LIST] [--commit SHA] [--timeout S] [--work-dir DIR]
// divopt bench --from-json RESULTS.json [--out DIR] [--repredict PROFILES]
//
// Runs the benchmark apps (benchmarks/apps, built beside divopt) under every
// variant of issue 6 on this machine's GPU and writes results.json, report.md
// and the Fig. 7/8/9 SVGs (docs/bench.md); --from-json renders the report and
// plots of saved results without a GPU, and --repredict prices the profiles
// a run kept (--work-dir) with this build's model: a model's error measured
// again without running anything.
#pragma once
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace divopt {

struct BenchOptions {
  std::vector<std::string> Apps; // empty: every app this build has
  int Repeat = 20;
  std::string Out; // empty: benchmarks/results/<device>/bench, or beside --from-json
  double SizeScale = 1;
  std::vector<std::string> SkipVariants;
  std::string FromJson;
  std::string Repredict; // with FromJson: the --work-dir of that run
  std::string Commit;
  double TimeoutSeconds = 300;
  std::string WorkDir; // empty: a temporary folder, removed afterwards
  std::string AppDir;  // empty: beside divopt (the plugin's builds of the apps)
};

CLI::App *addBenchCommand(CLI::App &App, BenchOptions &Options);

// Returns 0 when every variant ran and matched its baseline, 1 otherwise;
// throws when nothing can be measured (no GPU, no app).
int runBenchCommand(const BenchOptions &Options);

} // namespace divopt
