// The per-pixel work of the ksort app, shared by its kernels and the host
// statistics: the k-buffer resolve's sort of one pixel's fragment list by
// depth, nearest first, by insertion sort, in the pixel's own slot of the
// output array (the same layout as the input: list L at L * Capacity), then
// a summary of the sorted list: the median depth and a hash of the
// fragments in order.
//
// Each fragment read from the input is inserted into the sorted prefix
// already in the output slot, shifting the deeper ones up one place:
// Count reads from the input, and one load and one store of the slot per
// shift, as many shifts as the list has inversions (pairs out of depth
// order): about Count^2 / 4 for a list in random order, Count^2 / 2 for
// one drawn back to front, a few per fragment for one drawn front to back.
// A fragment stops at the first nearer-or-equal one, so fragments of equal
// depth keep their arrival order (the sort is stable). Sorting from the
// input into the output, rather than in place in the input, makes every
// launch do the same work and write the same bytes.
#pragma once

#include "KBufferLists.h"

#include <cstddef>
#include <cstdint>

namespace ksort {

#if defined(__CUDACC__)
#define KSORT_HD __host__ __device__
#else
#define KSORT_HD
#endif

struct ListSummary {
  uint32_t MedianDepth; // the depth at (Count - 1) / 2, the lower median
  uint64_t Hash;        // FNV-1a over the fragments in order (hashFragment)
};

constexpr uint64_t HashStart = 0xcbf29ce484222325ull;

// One step of the hash: FNV-1a over the fragment as one 64-bit word.
KSORT_HD inline uint64_t hashFragment(uint64_t Hash, const Fragment &F) {
  return (Hash ^ (uint64_t(F.Depth) << 32 | F.Color)) * 0x100000001b3ull;
}

// List L (Count >= 1 fragments) from In sorted into its slot of Out. Always
// inlined: each kernel then holds the sort's loops itself, where divopt's
// profile counts them, as the other apps' kernels hold their work.
KSORT_HD inline __attribute__((always_inline)) ListSummary
sortList(const Fragment *In, Fragment *Out, uint32_t Count, uint32_t L) {
  const Fragment *Arrived = In + size_t(L) * Capacity;
  Fragment *Slot = Out + size_t(L) * Capacity;
  for (uint32_t I = 0; I < Count; ++I) {
    const Fragment F = Arrived[I];
    Fragment *Hole = Slot + I; // where F goes if nothing before it is deeper
    for (; Hole != Slot; --Hole) {
      const Fragment Before = Hole[-1];
      if (Before.Depth <= F.Depth)
        break;
      *Hole = Before;
    }
    *Hole = F;
  }
  uint64_t Hash = HashStart;
  for (uint32_t I = 0; I < Count; ++I)
    Hash = hashFragment(Hash, Slot[I]);
  return {Slot[(Count - 1) / 2].Depth, Hash};
}

} // namespace ksort
