// What a report shows of each launch record. The counters are reduced to
// LaunchStats as each file is read, so a report over several large profiles
// holds one file's counters at a time.
#pragma once
#include "divopt/ProfileFile.h"
#include "profile/DivergenceStats.h"

#include <string>
#include <vector>

namespace divopt {

struct LaunchReport {
  LaunchHeader Header;
  LaunchStats Stats;
};

struct ProfileReport {
  std::string Path;
  std::vector<LaunchReport> Launches; // file order
};

} // namespace divopt
