// The runtime's warm-up: online and profile modes' one-time preparation,
// moved off the launch path. Online mode: the process's (online/OnlineProcess.h)
// and each kernel's notes, clones and weights. Profile mode: the compaction's
// kernels, CUB's scan and each kernel's profile and feature clones, which a
// first profiled launch loaded inside its own timed work (0.1-0.2 ms of
// bfs's feature phase on an H100).
//
// Under CUDA's lazy loading every kernel's first use loads it, and a load
// waits for the GPU to go idle; at a program's first launch the GPU is idle,
// so everything a first decision prepares there is time the program waits
// for: on an H100, 1.3-2.2 ms per process (CUB's kernels and scratch-size
// query, the decision's kernels, the mapped results' registration) and
// 0.5-0.8 ms per kernel (its notes, cost and redirected clones, weights),
// against launches of 0.5 ms.
//
// Each host module the pass instruments registers the kernels it launches
// from a constructor (abi::RegisterKernelsEntry). In online and profile
// modes the first registration starts one thread. With one GPU it makes that GPU's primary
// context at once, while the program starts (reading its inputs, say): the
// program's own first CUDA call then finds it ready instead of making it.
// With several GPUs it waits until the program has made one current (the
// program chooses). Then it prepares the process and every registered
// kernel on that device. It stops at the program's first launch (a load
// while kernels run would wait for them) and at exit; whatever it has not
// done is done at first launch, as without it. DIVOPT_WARMUP=0 turns it
// off, for a program that forks children which use CUDA: CUDA does not work
// in a child forked after the parent initialized it.
#pragma once
#include <cuda_runtime_api.h>

namespace divopt::rt::warmup {

// The launch path's notice that the program launches: the warm-up stops.
void noteLaunch();

} // namespace divopt::rt::warmup
