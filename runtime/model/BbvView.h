// Per-thread basic block vectors as the profiler lays them out:
// counts[bb * threads + t], block-major, so a warp's counts of one block are
// contiguous. A view: the counts belong to the caller.
#pragma once
#include <cstdint>

namespace divopt {

struct BbvView {
  const uint32_t *Counts = nullptr;
  uint32_t Threads = 0; // logical threads; redirection arrays index them with 32 bits
  uint32_t Blocks = 0;

  uint32_t count(uint32_t Bb, uint32_t Thread) const {
    return Counts[uint64_t(Bb) * Threads + Thread];
  }
  const uint32_t *column(uint32_t Bb) const { return Counts + uint64_t(Bb) * Threads; }
};

} // namespace divopt
