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

// How many launches of the record's kernel and shape its process made and
// recorded, from the profile's tally records (launch sampling).
struct LaunchCount {
  uint64_t Seen = 0;
  uint64_t Recorded = 0;
};

struct LaunchReport {
  LaunchHeader Header;
  std::optional<LaunchCount> Launches; // none without a tally of the shape
  LaunchStats Stats;
  RegroupVerdictNote Regroup;
  std::optional<LoopImbalance> Loop;
};

struct ProfileReport {
  std::string Path;
  std::vector<LaunchReport> Launches; // file order
  std::vector<TallyRecord> Tallies;   // file order, entries of filtered kernels
};

} // namespace divopt
