// %globaltimer, the GPU's nanosecond clock: the runtime's one-thread stamp
// kernels write it in stream order around the work they time (profile mode's
// clone and compaction, online mode's cost clone and decisions). Device code,
// for the runtime's nvcc-built files.
#pragma once

namespace divopt::rt {

__device__ inline unsigned long long globalTimer() {
  unsigned long long T;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(T));
  return T;
}

} // namespace divopt::rt
