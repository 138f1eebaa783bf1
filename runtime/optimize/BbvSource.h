// Where optimize mode gets the BBVs of a launch before it runs. One
// interface, so that the regression model of a later issue can stand in for
// the profile.
#pragma once
#include "divopt/ProfileFile.h"
#include "launch/KernelRegistry.h"
#include "launch/LaunchShape.h"
#include "model/BbvView.h"

#include <string>

namespace divopt::rt {

// One launch's BBVs: its record (header and notes; Counts left empty) and
// the counts wherever the source keeps them, which the model reads once.
struct LaunchBbvs {
  LaunchProfile Launch;
  BbvView Bbv;
};

class BbvSource {
public:
  virtual ~BbvSource() = default;
  // The per-thread BBVs of a launch of K with this shape, or null with Why
  // saying why there are none.
  virtual const LaunchBbvs *bbvsFor(const KernelInfo &K, const Shape &S, std::string &Why) = 0;
};

// BBVs recorded by profile mode (DIVOPT_PROFILE_USE), matched by kernel and
// launch shape, as -fprofile-instr-use matches a profile to functions.
BbvSource &profileBbvSource();

} // namespace divopt::rt
