// Every thread's BBV from its inputs: the fitted model evaluated per thread
// and block, rounded to the nearest non-negative count. Runs at launch time,
// spread over the host's cores.
#pragma once
#include "predict/BbvModel.h"

#include <cstdint>

namespace divopt {

// Features: [f * Threads + t] for the model's NumFeatures (may be null when
// !M.needsFeatures()). Counts: [b * Threads + t] for every block. The model
// must be usable (M.unusableBecause() empty). Workers 0: every core.
void predictBbvs(const KernelModel &M, const double *Features, uint64_t Threads,
                 uint32_t *Counts, unsigned Workers = 0);

// The count a prediction rounds to: nearest integer, negative and NaN to 0,
// saturated at 2^32 - 1 as the profile's counters.
uint32_t roundCount(double Predicted);

} // namespace divopt
