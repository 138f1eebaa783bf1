// Host job: route every kernel launch through the runtime's launch entry.
//
// Each call to cudaLaunchKernel (or its _ptsz twin) becomes a call to
// abi::LaunchEntry with the same arguments plus the kernel's device-side
// name, learned from the module's __cudaRegisterFunction calls (stub ->
// name); cudaLaunchKernelExC and cudaLaunchCooperativeKernel likewise go to
// their own entries (Abi.h). The runtime then chooses, per launch, between
// the original kernel and its clones. A constructor registers the launched
// kernels with the runtime (abi::RegisterKernelsEntry), so that it can
// prepare them before their first launch.
#pragma once
#include "llvm/IR/Module.h"

namespace divopt {

// Returns the number of launch sites rewritten.
unsigned interceptLaunches(llvm::Module &M);

} // namespace divopt
