// How well a fitted BBV model predicts launches it was not fitted on: the
// model evaluated on each profiled launch's recorded feature values, against
// the BBVs the launch counted. `divopt fit --check` reports it, and the
// bench's model variant reports it per app (seed 002 section VI: prediction
// error on an input the model has never seen).
#pragma once
#include "divopt/ProfileFile.h"
#include "predict/BbvModel.h"

#include <string>
#include <vector>

namespace divopt {

struct ModelCheck {
  std::string Why; // non-empty: the launches cannot be checked, and why
  uint64_t Launches = 0;
  uint64_t Threads = 0;
  // Mean over threads and basic blocks of |predicted - counted|.
  double MeanAbsError = 0;
  // Sum of |predicted - counted| over the sum of the counts.
  double RelativeError = 0;
  // Threads whose whole predicted BBV equals the counted one.
  double ExactThreads = 0;
};

// Launches: profiled launches of M's kernel, with feature values when the
// model needs them. Workers as predictBbvs.
ModelCheck checkModel(const KernelModel &M, const std::vector<const LaunchProfile *> &Launches,
                      unsigned Workers = 0);

} // namespace divopt
