// divopt imbalance DIST [--n 2,4,8,16,32] [--epsilon E] [--monte-carlo SAMPLES]
//                       [--seed S] [--json [--pmf]] [--plot FILE.svg]
// The loss to thread imbalance a work distribution implies, before any
// kernel is written (seed 001; docs/imbalance.md).
#pragma once
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace divopt {

// Numbers stay text until runImbalanceCommand checks them, so that every
// bad value gets the same "divopt: error: --option: ..." line (CLI11 would
// wrap --seed -1 around and word conversion failures its own way).
struct ImbalanceOptions {
  std::string Distribution;                  // binomial:N,P ... empirical:FILE
  std::vector<std::string> GroupSizes{"32"}; // 1..1024 each
  std::string Epsilon = "1e-6";              // tail mass cut off infinite supports
  std::string MonteCarloGroups;              // groups simulated per n; empty: no simulation
  std::string Seed = "5489";                 // std::mt19937's default seed
  bool Json = false;
  bool Pmf = false; // with Json: the whole pmf, up to ~10^6 outcomes per n
  std::string Plot; // SVG path; empty: no plot
};

// Registers the subcommand and its options on App.
CLI::App *addImbalanceCommand(CLI::App &App, ImbalanceOptions &Options);

// Prints the table (or JSON) on stdout and returns the exit code; throws
// std::exception with a message for the user on bad parameters.
int runImbalanceCommand(const ImbalanceOptions &Options);

} // namespace divopt
