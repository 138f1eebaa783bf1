// The feature-extraction clone K__divopt_features (abi::FeatureCloneSuffix):
// K's parameters plus double *features. Each thread writes its value of
// every feature f to features[f * nthreads + gtid], reading only what K reads
// for that thread: a feature load runs under the replicated guards of its
// block (FeatureSlice.h), and 0 is written where the guards fail. No loops,
// no other writes.
#pragma once
#include "BbvFeatures.h"

namespace divopt {

// Null when the kernel has no features.
llvm::Function *createFeatureClone(llvm::Function &Kernel, const KernelFeatures &Features);

} // namespace divopt
