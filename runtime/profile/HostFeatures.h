// Feature columns that need no GPU work: a kernel whose features are each
// the thread's linear index or one of its scalar parameters (the notes'
// kinds "tid" and "param") has columns THREAD_INDEX or CONSTANT in every
// launch, and their values are on the host before the launch. The feature
// clone (kind "load" aside) would only write T doubles a column for the
// feature compaction to find that again: 0.47 ms of the 20M-thread kernel's
// profiled launch (H100).
#pragma once
#include "profile/FeatureCompaction.h"
#include "divopt/KernelNotes.h"

#include <cstdint>

namespace divopt::rt::profile {

// Whether every feature of K is known on the host. Then hostFeatureColumns
// fills the columns' results exactly as the GPU's feature compaction
// (chooseFeatureEncoding's rules) would.
bool featuresKnownOnHost(const KernelNote &K);

// The F = K.Features.size() columns of a launch of T threads with kernel
// arguments Args (cudaLaunchKernel's), into Out[0..F).
void hostFeatureColumns(const KernelNote &K, void *const *Args, uint64_t T,
                        FeatureColumnResult *Out);

} // namespace divopt::rt::profile
