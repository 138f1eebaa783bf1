// Online mode's one-time preparation of the process: the latency table, the
// decision's and the stream writes' kernels (CUB's sorts included), the
// mapped results. Done by the warm-up thread before the program's first
// launch (launch/Warmup.h), else by the first decision.
#pragma once
#include <cuda_runtime_api.h>

namespace divopt::rt::online {

// Once per process, on whichever thread comes first (the warm-up thread or
// a first decision, which then waits for the other).
void prepareProcess(cudaStream_t Stream);

} // namespace divopt::rt::online
