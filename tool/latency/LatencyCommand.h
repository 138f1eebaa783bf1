// divopt latency [--out DIR] [--only GROUP[,GROUP]] [--repeat N]
//   measures this GPU's latency table with the suite the build compiled
//   (benchmarks/latency, docs/latency.md) and writes DIR/latency-table.json,
//   .md and the plots of its sweeps
// divopt latency --show FILE
//   prints a latency table, after checking it as the model would read it
#pragma once
#include <string>

namespace CLI {
class App;
}

namespace divopt {

struct LatencyOptions {
  std::string Out = "latency-results";
  std::string Only;   // empty: every group
  std::string Repeat; // empty: the suite's default; the suite checks the value
  std::string Show;   // a table to print instead of measuring
};

// Registers the subcommand and its options on App.
CLI::App *addLatencyCommand(CLI::App &App, LatencyOptions &Options);

// Returns the exit code; throws std::exception with a message for the user
// (an unreadable or malformed table names the file and the key).
int runLatencyCommand(const LatencyOptions &Options);

} // namespace divopt
