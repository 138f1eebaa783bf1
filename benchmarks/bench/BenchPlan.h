// The experiment `divopt bench` runs for one app (docs/bench.md): baseline
// with --check, a profile run, the regrouping algorithms in optimize mode
// guided by that profile, the model variant where `divopt fit` exists, the
// hand-written regrouping, the derived oracle, and the model's predictions.
#pragma once
#include "BenchProvenance.h"
#include "BenchResults.h"

#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace divopt::bench {

// The apps of issue 6, in report order.
const std::vector<std::string> &knownApps();

// When App joined the suite, for issue 16's errors on apps the model had not
// seen: 0 for the twelve it was first built on, K for the four added after
// its K-th freeze; none for an app not in knownApps().
std::optional<unsigned> freezeGroup(const std::string &App);

// "[  12.3 s] sw greedy: ..." lines on stderr.
class Progress {
public:
  void say(const std::string &App, const std::string &What) const;

private:
  std::chrono::steady_clock::time_point Start = std::chrono::steady_clock::now();
};

struct PlanOptions {
  std::string AppDir;  // where the bench-app-* programs are
  std::string WorkDir; // profiles and models
  std::string Self;    // this divopt, for `divopt fit`
  int Repeat = 20;
  double SizeScale = 1;
  std::set<std::string> Skip; // variant names
  double TimeoutSeconds = 300;
  GpuInfo Gpu;
  bool FitAvailable = false;
};

std::string appProgram(const std::string &AppDir, const std::string &App);

// Whether `divopt fit` exists in this build (another subcommand may add it).
bool fitAvailable(const std::string &Self);

// Never throws for a failing app: the failure is in the result (Error, or a
// variant's status), so the other apps still run.
AppResult benchmarkApp(const std::string &App, const PlanOptions &O, const Progress &P);

} // namespace divopt::bench
