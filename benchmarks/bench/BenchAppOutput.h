// What one run of a benchmark app tells the harness: the one JSON line it
// prints on stdout (the contract in docs/bench.md) and the decisions the
// divopt runtime prints on stderr under DIVOPT_VERBOSE=1.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace divopt::bench {

struct AppOutput {
  std::string App, Variant, Kernel;
  uint64_t Threads = 0, Size = 0, Seed = 0;
  int Repeat = 0;
  std::vector<double> TimesMs;
  double MedianMs = 0, MinMs = 0, MaxMs = 0;
  std::string Checksum; // 16 lower-case hex digits
  std::string Check;    // "pass" or "skipped"
  double RegroupMs = 0; // handwritten: key + sort + upload
  bool ComputeBound = false;
  // --end-to-end: the host wall time of the first `repeat` launches issued
  // back to back (divopt's overheads included); none without the flag.
  std::optional<double> EndToEndMs;
};

// Parses an app's stdout: exactly one non-empty line holding the JSON object.
// Throws std::runtime_error naming App and what is wrong (not JSON, a field
// missing or of the wrong type, times that disagree with repeat, another app's
// name). "end_to_end_ms" may be absent or null (no --end-to-end).
AppOutput parseAppOutput(const std::string &App, const std::string &Stdout);

// One "divopt: [not ]regrouping KERNEL <<<grid, block>>>: WHY [decided in X ms] (STAGES)"
// line of runtime/optimize/OptimizeLaunch.cpp; older runtimes printed no stages.
struct RuntimeDecision {
  bool Regrouped = false;
  std::string Kernel;
  std::string Shape;
  std::string Why;
  double DecidedMs = 0;
  std::string Stages; // where DecidedMs went, as printed; empty when absent
  // From "N SMs x M blocks" in WHY (the model's machine); 0 when absent.
  uint32_t SMs = 0, Occupancy = 0;
};

// Every decision line in Stderr, in order; other lines are ignored.
std::vector<RuntimeDecision> parseRuntimeDecisions(const std::string &Stderr);

// The decision for Kernel (the first; a kernel launched with one shape has
// exactly one), if the runtime printed one.
std::optional<RuntimeDecision> decisionFor(const std::vector<RuntimeDecision> &All,
                                           const std::string &Kernel);

// What `divopt fit --check` printed for Kernel ("check: kernel K on P: WHAT"),
// WHAT alone; empty when it printed nothing for it.
std::string predictionCheckFor(const std::string &FitStdout, const std::string &Kernel);

} // namespace divopt::bench
