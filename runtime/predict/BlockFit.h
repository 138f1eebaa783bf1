// Fitting one basic block's count (seed 002 eq. 1): intercept, the block's
// inputs and the thread id, plus piecewise-linear terms for the step shape
// (`if (x > c)` gives [x > c], `for (i = c; i < x; ...)` gives max(0, x - c))
// at thresholds taken from the training data. A term beyond the block's
// inputs is kept only if it lowers the cross-validated error on the training
// threads by at least MinGain, so the held-out error stays an honest test.
#pragma once
#include "predict/BbvModel.h"
#include "predict/Observations.h"

namespace divopt {

struct BlockFitOptions {
  unsigned Folds = 4;          // cross-validation folds for choosing terms
  unsigned MaxExtraTerms = 4;  // terms added beyond the base ones
  unsigned MaxThresholds = 24; // candidate thresholds per input
  double MinGain = 0.1;        // least relative drop of the error to keep a term
};

// Inputs: the inputs the notes say decide the block's count (feature indices,
// TidInput for the thread id). HeldOut may be empty.
BlockModel fitBlock(unsigned Block, const std::vector<int> &Inputs, const Observations &Train,
                    const Observations &HeldOut, const BlockFitOptions &Options = {});

// The model's count for observation I of O, unrounded.
double predictObservation(const BlockModel &M, const Observations &O, size_t I);

} // namespace divopt
