// Where the GPU writes what the host reads of a decision (DecisionResult):
// mapped, pinned host memory. Slots come from one static buffer registered
// once with cudaHostRegister (0.1 ms on an H100, against about 1 ms for a
// process's first cudaHostAlloc); past its 256 slots, from cudaHostAlloc.
#pragma once
#include "online/DecisionKernels.h"

namespace divopt::rt::online {

// Null when no mapped memory can be had. Slots are never returned: each
// belongs to a kernel and launch shape for the life of the process.
DecisionResult *allocateResult();

// Registers the static buffer now (the warm-up thread), if not yet done.
void registerResultPool();

} // namespace divopt::rt::online
