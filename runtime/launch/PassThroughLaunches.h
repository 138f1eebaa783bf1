// Launches divopt runs exactly as the program asked, neither profiled nor
// regrouped (issue 15):
//   - cooperative launches (cudaLaunchCooperativeKernel, or cudaLaunchKernelEx
//     with cudaLaunchAttributeCooperative): a grid-wide sync needs the grid
//     resident as the program laid it out, and its threads may exchange data
//     through memory across blocks at that sync;
//   - thread-block clusters (cudaLaunchKernelEx with cluster dimensions or a
//     cluster scheduling preference): the blocks of a cluster share
//     distributed shared memory, and the clones are launched without
//     clusters;
//   - cudaLaunchKernelEx attributes divopt does not pass on to its clones
//     (it launches them with cuLaunchKernel, which takes none).
// Each kernel and reason is said once, on the first such launch; every one
// is counted, and DIVOPT_VERBOSE prints the counts at exit.
#pragma once
#include <cuda_runtime_api.h>
#include <string>

namespace divopt::rt {

inline constexpr const char *CooperativeLaunch =
    "it is a cooperative launch, whose grid-wide synchronization needs the program's own layout";

// Why Config cannot be launched through divopt, or "" when it can (no
// attributes but ignored entries and a cooperative attribute set to 0).
std::string passThroughReason(const cudaLaunchConfig_t &Config);

// Counts one launch of kernel Name (null when the pass could not tell) run
// as it is, for Why; says so the first time for that kernel and reason.
void countPassThrough(const char *Name, const std::string &Why);

} // namespace divopt::rt
