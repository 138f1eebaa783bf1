// Per-thread basic block vectors as the profiler lays them out:
// counts[bb * threads + t], block-major, so a warp's counts of one block are
// contiguous. A view: the counts belong to the caller. They may sit at any
// byte offset (optimize mode reads them straight from the mapped profile,
// where a record's counters follow its variable-length header), so they
// are read with memcpy, which compiles to plain (and vector) loads.
#pragma once
#include <cstdint>
#include <cstring>

namespace divopt {

// Count T of a column of counts.
inline uint32_t countAt(const unsigned char *Column, uint64_t T) {
  uint32_t V;
  std::memcpy(&V, Column + T * sizeof(uint32_t), sizeof V);
  return V;
}

struct BbvView {
  const void *Counts = nullptr; // uint32_t counts, not necessarily aligned
  uint32_t Threads = 0; // logical threads; redirection arrays index them with 32 bits
  uint32_t Blocks = 0;

  uint32_t count(uint32_t Bb, uint32_t Thread) const { return countAt(column(Bb), Thread); }
  const unsigned char *column(uint32_t Bb) const {
    return static_cast<const unsigned char *>(Counts) + uint64_t(Bb) * Threads * sizeof(uint32_t);
  }
};

} // namespace divopt
