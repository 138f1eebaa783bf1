// The per-query work of the range app, shared by its kernels (and the
// hand-written key) and run on the host for the work statistics: a range
// query answered through the B+-tree (RangeTree.h). The descent searches
// one inner node a level for the first child whose largest key is at least
// Lo, by a branchless binary search of 5 steps over the node's 31 keys (the
// node's line, then L1 hits), then the leaf the same way for the first
// entry whose key is at least Lo; from there the scan reads entries one by
// one, across leaves, summing values until a key exceeds Hi (the sentinel
// stops it at the latest). The descent is the same for every query (Height
// + 1 nodes of 5 steps); the scan reads the matching entries and the one
// that ends it, 1 for a point lookup that misses, 2 for one that hits and
// up to thousands for a wide range: that is where the threads diverge.
#pragma once

#include "RangeQueries.h"
#include "RangeTree.h"

#include <cstdint>

namespace range {

struct TreeView {
  const uint32_t *Inner;
  const Entry *Entries;
  uint32_t Height;
};

// A query's result: the sum of the values and the number of the keys in
// [Lo, Hi], and the rank of the first key >= Lo (KeyCount if none), where a
// cursor over the range would start.
struct Answer {
  uint64_t Sum;
  uint32_t Count, First;
};

// Always inlined: each kernel then holds the descent and the scan loop
// itself, where divopt's profile counts them.
RANGE_HD inline __attribute__((always_inline)) Answer answerQuery(const TreeView &T, Query Q) {
  // Each node on the way holds a key >= Lo (the root the sentinel), so its
  // child found below is a real one with that property too.
  uint32_t Child = 0;
  for (uint32_t Level = 0; Level < T.Height; ++Level) {
    const uint32_t *Node = T.Inner + size_t(Child) * Fanout;
    uint32_t J = 0;
    for (uint32_t Step = Fanout / 2; Step > 0; Step /= 2)
      if (Node[J + Step - 1] < Q.Lo)
        J += Step;
    Child = Node[ChildWord] + J;
  }
  // The leaf's last key is >= Lo, so 5 steps over the first 31 find the
  // first such key.
  const Entry *Leaf = T.Entries + size_t(Child) * Fanout;
  uint32_t J = 0;
  for (uint32_t Step = Fanout / 2; Step > 0; Step /= 2)
    if (keyOf(Leaf[J + Step - 1]) < Q.Lo)
      J += Step;
  Answer A{0, 0, Child * Fanout + J};
  for (const Entry *E = Leaf + J;; ++E) {
    const Entry Read = *E;
    if (keyOf(Read) > Q.Hi)
      break;
    A.Sum += valueOf(Read);
    ++A.Count;
  }
  return A;
}

// The hand-written key, the query's exact work: the nodes the descent
// searches (the same for all, so it only shifts the key) and the entries the
// scan reads, the matches and the one that ends it.
RANGE_HD inline uint32_t work(const TreeView &T, const Answer &A) {
  return T.Height + 1 + A.Count + 1;
}

} // namespace range
