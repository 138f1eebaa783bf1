// What `divopt analyze` found for one launch, shared by its text and JSON
// printers.
#pragma once
#include "divopt/ProfileFile.h"
#include "latency/LatencyTable.h"
#include "regroup/ChooseRegrouping.h"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace divopt {

// Conditional branches as the GPU counted them (profiles only; a
// regrouping's branches are known only by profiling it).
struct MeasuredBranches {
  uint64_t Divergent = 0;
  uint64_t Executed = 0;
  // Counted in CountedBlocks of the launch's ThreadBlocks and scaled to all
  // when fewer (the profile clone's branch sampling).
  uint64_t CountedBlocks = 0, ThreadBlocks = 0;
  double ratio() const { return Executed ? double(Divergent) / double(Executed) : 0.0; }
};

struct LaunchAnalysis {
  std::optional<LaunchHeader> Header; // from a profile; empty for CSV input
  std::optional<KernelNote> Kernel;   // its notes (regroup verdict)
  std::string BbvSource;              // the CSV file, for CSV input
  uint32_t Threads = 0;
  uint32_t BasicBlocks = 0;
  uint32_t BlockSize = 0;
  uint32_t GroupSize = 0;
  double MinImprovement = 0;
  Machine Gpu;
  bool OccupancyGiven = false;
  std::vector<double> BlockLatency;
  RedirectionPrice Price;
  std::optional<MeasuredBranches> Branches;
  RegroupDecision Decision;
};

struct AnalyzeReport {
  LatencyTable Latency;              // entries unused by the printers
  std::vector<std::string> Guessed;  // warnings: keys priced by a fallback
  std::vector<LaunchAnalysis> Launches;
};

void printAnalyzeText(std::ostream &OS, const AnalyzeReport &R);
// CSV input: one launch object; profiles: {"latency": .., "launches": [..]}.
void printAnalyzeJson(std::ostream &OS, const AnalyzeReport &R, bool SingleLaunch);

} // namespace divopt
