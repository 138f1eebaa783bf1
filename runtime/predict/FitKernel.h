// `divopt fit` without the command line: a kernel's profiled launches in, its
// BBV model out. As in seed 002 (section IV-A), each launch's first thread
// blocks train the model and its other threads test it.
#pragma once
#include "divopt/ProfileFile.h"
#include "predict/BbvModel.h"
#include "predict/BlockFit.h"

#include <stdexcept>
#include <vector>

namespace divopt {

struct FitOptions {
  unsigned TrainBlocks = 1; // thread blocks of each launch (linear ids 0..N-1)
  BlockFitOptions Block;
};

// Launches of one kernel that cannot be fitted together (different notes).
struct FitError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Launches: every profiled launch of one kernel, with one notes digest.
KernelModel fitKernel(const std::vector<const LaunchProfile *> &Launches,
                      const FitOptions &Options = {});

} // namespace divopt
