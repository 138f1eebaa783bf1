// Threads with identical BBVs, found once per launch. Real kernels have far
// fewer distinct BBVs than threads (seed 002's MC: one per cube case), and
// identical threads are interchangeable for the model and the regrouping
// (seed 002, section V-B: they merge at no cost), so both work on classes.
#pragma once
#include "model/BbvView.h"

#include <cstdint>
#include <vector>

namespace divopt {

struct BbvClasses {
  uint32_t Blocks = 0;
  // Classes are numbered in order of their first thread: thread 0 is in
  // class 0, and First is increasing.
  std::vector<uint32_t> ClassOf; // per logical thread
  std::vector<uint32_t> First;   // per class: its lowest thread id
  std::vector<uint32_t> Size;    // per class: its threads
  std::vector<uint32_t> Rows;    // per class, its BBV: Rows[class * Blocks + bb]

  uint32_t classes() const { return uint32_t(First.size()); }
  uint32_t threads() const { return uint32_t(ClassOf.size()); }
  const uint32_t *row(uint32_t Class) const { return Rows.data() + uint64_t(Class) * Blocks; }
};

// Hashes every BBV (in parallel), buckets threads by hash, then checks each
// thread against its bucket's first thread, so a hash collision costs time,
// never a wrong class. Workers 0: every hardware thread.
BbvClasses findClasses(const BbvView &Bbv, unsigned Workers = 0);

// The same with a caller's hash step, for tests that force collisions.
using BbvHashStep = uint64_t (*)(uint64_t Hash, uint32_t Count);
BbvClasses findClasses(const BbvView &Bbv, unsigned Workers, BbvHashStep Step);

} // namespace divopt
