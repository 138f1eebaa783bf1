// What a report shows of each launch record. The counters are reduced to
// LaunchStats as each file is read, so a report over several large profiles
// holds one file's counters at a time.
#pragma once
#include "divopt/ProfileFile.h"
#include "LoopImbalance.h"
#include "profile/DivergenceStats.h"

#include <string>
#include <vector>

namespace divopt {

// The pass's verdict on regrouping the kernel, from its notes.
struct RegroupVerdictNote {
  bool Safe = false;
  std::string Reason;
  unsigned Line = 0;
};

struct LaunchReport {
  LaunchHeader Header;
  LaunchStats Stats;
  RegroupVerdictNote Regroup;
  std::optional<LoopImbalance> Loop;
};

struct ProfileReport {
  std::string Path;
  std::vector<LaunchReport> Launches; // file order
};

} // namespace divopt
