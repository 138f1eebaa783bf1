// divopt analyze PROFILE [--kernel NAME] [--latency TABLE] [--algorithms LIST]
//                [--group-size N] [--sms N] [--occupancy N] [--json]
// divopt analyze --bbv-csv BBV.csv --block-latency LAT.csv --block-size B
//                [--sms S] [--occupancy O] [--algorithms LIST] [--group-size N]
//                [--json] [--emit-redirect DIR]
//
// Seed 002's model before and after each regrouping algorithm, per launch
// (docs/model.md).
#pragma once
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace divopt {

struct AnalyzeOptions {
  std::string Profile;
  std::string Kernel;  // empty: every kernel
  std::string Latency; // empty: the built-in unit table
  std::vector<std::string> Algorithms = {"sorting", "greedy", "greedy-max"};
  uint32_t GroupSize = 32;
  uint32_t SMs = 132;
  uint32_t Occupancy = 0; // 0: as many blocks as the SM's thread limit allows
  bool Json = false;
  std::string BbvCsv, BlockLatencyCsv, EmitRedirect;
  uint32_t BlockSize = 0;
};

// Adds the subcommand and its options; a command line that gives neither a
// profile nor --bbv-csv, or mixes the two forms, fails parsing.
CLI::App *addAnalyzeCommand(CLI::App &App, AnalyzeOptions &Options);

// Prints the analysis on stdout and returns the exit code; throws on
// unreadable inputs.
int runAnalyzeCommand(const AnalyzeOptions &Options);

} // namespace divopt
