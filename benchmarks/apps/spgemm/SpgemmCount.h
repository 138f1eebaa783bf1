// The per-row work of the symbolic SpGEMM kernel and its hand-written copy
// (the CPU reference counts another way, SpgemmReference.h): the number of
// distinct columns in row I of C = A B, the union of the rows of B that row
// I of A references, found by a k-way merge of those sorted rows with a
// binary min-heap, as the heap method of merge-based SpGEMM codes does for
// one row per thread. The heap holds one cursor per non-empty referenced row
// of B (at most MaxRowLength, the longest row of A) in a local array; every
// entry of those rows is popped once, in ascending column order, and counted
// when its column differs from the one popped before. A row's pops are the
// sum of its referenced rows' lengths, each followed by a sift-down of up to
// log2(heap size) levels: a few dozen for most rows, thousands for a long row
// of A or one that references a long row of B.
#pragma once

#include "SpgemmInput.h"

#include <cstdint>

namespace spgemm {

#if defined(__CUDACC__)
#define SPGEMM_HD __host__ __device__
#else
#define SPGEMM_HD
#endif

// A referenced row of B being merged: the column at its head, the position
// after the head and the row's end in B's columns.
struct Cursor {
  uint32_t Column, Next, End;
};

// Puts Entry into the heap of Size cursors at Hole, moving smaller children
// up until both of Hole's children are at least Entry's column.
SPGEMM_HD inline __attribute__((always_inline)) void siftDown(Cursor *Heap, uint32_t Size,
                                                              uint32_t Hole, Cursor Entry) {
  for (uint32_t Child = 2 * Hole + 1; Child < Size; Child = 2 * Hole + 1) {
    if (Child + 1 < Size && Heap[Child + 1].Column < Heap[Child].Column)
      ++Child;
    if (Heap[Child].Column >= Entry.Column)
      break;
    Heap[Hole] = Heap[Child];
    Hole = Child;
  }
  Heap[Hole] = Entry;
}

// Always inlined: each kernel then holds the merge loop itself, where
// divopt's profile counts it (a call is one instruction to it).
SPGEMM_HD inline __attribute__((always_inline)) uint32_t
productRowLength(const uint32_t *ARowStart, const uint32_t *AColumn, const uint32_t *BRowStart,
                 const uint32_t *BColumn, uint32_t I) {
  Cursor Heap[MaxRowLength];
  uint32_t Size = 0;
  for (uint32_t E = ARowStart[I]; E < ARowStart[I + 1]; ++E) {
    const uint32_t K = AColumn[E], Begin = BRowStart[K], End = BRowStart[K + 1];
    if (Begin < End)
      Heap[Size++] = {BColumn[Begin], Begin + 1, End};
  }
  // Floyd's bottom-up heap construction.
  for (uint32_t Hole = Size / 2; Hole-- > 0;)
    siftDown(Heap, Size, Hole, Heap[Hole]);
  // Columns are below N <= 2^32 - 1, so no column equals the start value.
  uint32_t Distinct = 0, Last = UINT32_MAX;
  while (Size > 0) {
    Cursor Top = Heap[0];
    Distinct += Top.Column != Last;
    Last = Top.Column;
    if (Top.Next < Top.End)
      Top = {BColumn[Top.Next], Top.Next + 1, Top.End};
    else
      Top = Heap[--Size]; // that row is done; the last cursor fills the root
    siftDown(Heap, Size, 0, Top);
  }
  return Distinct;
}

// The hand-written key: the entries the merge pops, the sum of the lengths
// of the rows of B that row I of A references (an upper bound on row I of
// C). At most MaxRowLength^2, so it fits 32 bits.
SPGEMM_HD inline uint32_t mergedEntries(const uint32_t *ARowStart, const uint32_t *AColumn,
                                        const uint32_t *BRowStart, uint32_t I) {
  uint32_t Entries = 0;
  for (uint32_t E = ARowStart[I]; E < ARowStart[I + 1]; ++E)
    Entries += BRowStart[AColumn[E] + 1] - BRowStart[AColumn[E]];
  return Entries;
}

#undef SPGEMM_HD

} // namespace spgemm
