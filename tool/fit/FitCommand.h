// divopt fit PROFILE... [--kernel NAME] [--out MODEL] [--train-blocks N] [--json]
//                       [--check PROFILE]...
//
// Seed 002 section IV-A: per kernel and basic block, a least-squares model of
// each thread's execution count from its inputs (the features the pass
// found), trained on the first thread blocks of each profiled launch and
// tested on the other threads. Writes the model file optimize mode reads
// (docs/prediction.md). --check then predicts the launches of other profiles
// (another input) from their feature values and reports the BBV error.
#pragma once
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace divopt {

struct FitCommandOptions {
  std::vector<std::string> Profiles;
  std::string Kernel; // empty: every kernel
  std::string Out = "default.divmodel";
  unsigned TrainBlocks = 1;
  bool Json = false;
  std::vector<std::string> Check; // profiles of other inputs to predict
};

CLI::App *addFitCommand(CLI::App &App, FitCommandOptions &Options);

// Writes the model and a report on stdout (the model's JSON with --json);
// returns the exit code; throws on unreadable profiles, a --kernel that
// matches nothing or an unwritable model file.
int runFitCommand(const FitCommandOptions &Options);

} // namespace divopt
