// Seed 001's view of a launch: when its divergence is a loop whose trip
// count varies by thread, how much do warps lose to the slowest thread
// (n max / sum, n = 32) in the launch's own thread order, what the
// imbalance model expects if threads met at random, and what sorting the
// threads by trip count would leave.
#pragma once
#include "divopt/ProfileFile.h"

#include <optional>

namespace divopt {

struct LoopImbalance {
  unsigned Block = 0;         // the loop block with the most executions
  double CurrentOrder = 1;    // mean over warps of 32 max / sum, as launched
  std::optional<double> Model; // E[X_W(32)], W = the observed trip counts
  std::string ModelProblem;    // why there is no model figure
  double SortedOrder = 1;      // the same after sorting threads by trip count
};

// None when no loop block's count varies between threads.
std::optional<LoopImbalance> loopImbalance(const LaunchProfile &P);

} // namespace divopt
