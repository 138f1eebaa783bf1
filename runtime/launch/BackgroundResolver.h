// Online mode's kernel resolution off the launch path. A kernel's first
// launch in a process costs 0.1-0.2 ms of host time for its notes alone (read
// from its GPU module, parsed; H100 and H200), more than a short kernel
// runs. The warm-up thread (Warmup.h) does it before the program's first
// launch when the program gives it the time; a kernel it has not reached
// runs as written while this thread reads its notes and prices its blocks
// (onlineKernelInfo, KernelRegistry.h, says when a launch waits instead).
// One thread, started at the first request, ended at exit; it loads no GPU
// code (the clones are looked up at their first use, on the launch path).
#pragma once
#include "launch/KernelRegistry.h"

namespace divopt::rt {

// Resolves the kernel (kernelInfo) on the background thread, on the
// calling thread's current device.
void resolveInBackground(const void *Stub, const char *Name, const RewrittenVariants *Rewritten);

} // namespace divopt::rt
