// The range app's index: a static B+-tree bulk-loaded bottom-up from the
// sorted keys (RangeTable.h), as a read-mostly GPU index (a database's
// secondary index, a key-value store's sorted run) is built once and then
// only searched.
//
// Leaves are the entries, (key, value) pairs of 8 bytes, Fanout (32) a
// leaf, 256 bytes, in key order and contiguous: a scan runs from one leaf
// into the next without following a link. A sentinel entry (key UINT32_MAX,
// above every key and every query's Hi) follows the last key and ends every
// scan; more of them pad the last leaf. KeyCount keys and one sentinel make
// 2^19 full leaves, 128 MiB.
//
// An inner node is Fanout words, one 128-byte line: word j < 31 holds the
// largest key under child j (UINT32_MAX past the node's last child), word 31
// the number of child 0, whose siblings follow it in the level below. The
// largest key under child 31 is not needed: a search that passes children 0
// to 30 takes child 31. The inner levels are stored root first, the root is
// node 0, and a child number is a node of the next level's or, from the
// lowest level, a leaf number. Over 2^19 leaves: 16,384, 512 and 16 nodes
// and the root, 4 levels, 2.1 MiB, which the L2 holds; the leaves are 2.6
// times its size.
#pragma once

#include "RangeTable.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace range {

constexpr uint32_t Fanout = 32;
constexpr uint32_t ChildWord = Fanout - 1;
constexpr uint32_t Sentinel = UINT32_MAX;

// An entry is one 64-bit word, the key in its low half and the value in its
// high half, so that the scan reads both with one load whatever the compiler
// makes of a pair of fields.
using Entry = uint64_t;

#if defined(__CUDACC__)
#define RANGE_HD __host__ __device__
#else
#define RANGE_HD
#endif

RANGE_HD inline Entry makeEntry(uint32_t Key, uint32_t Value) {
  return uint64_t(Value) << 32 | Key;
}
RANGE_HD inline uint32_t keyOf(Entry E) { return uint32_t(E); }
RANGE_HD inline uint32_t valueOf(Entry E) { return uint32_t(E >> 32); }

struct Tree {
  std::vector<uint32_t> Inner; // Fanout words a node, the root first
  std::vector<Entry> Entries;  // Fanout a leaf
  uint32_t Height;             // inner levels
};

inline Tree buildTree(const Table &T) {
  Tree Out;
  // At least one sentinel, even when the keys fill their last leaf.
  const uint32_t Leaves = KeyCount / Fanout + 1;
  Out.Entries.assign(size_t(Leaves) * Fanout, makeEntry(Sentinel, 0));
  for (uint32_t I = 0; I < KeyCount; ++I)
    Out.Entries[I] = makeEntry(T.Keys[I], T.Values[I]);

  // Inner levels bottom-up, child numbers local to the level below. Largest
  // holds the largest key under each node of the level below.
  std::vector<std::vector<uint32_t>> Levels;
  std::vector<uint32_t> Largest(Leaves);
  for (uint32_t L = 0; L < Leaves; ++L)
    Largest[L] = keyOf(Out.Entries[size_t(L + 1) * Fanout - 1]);
  do {
    const uint32_t Children = uint32_t(Largest.size());
    const uint32_t Nodes = (Children + Fanout - 1) / Fanout;
    std::vector<uint32_t> Level(size_t(Nodes) * Fanout, Sentinel), Above(Nodes);
    for (uint32_t N = 0; N < Nodes; ++N) {
      const uint32_t First = N * Fanout, End = std::min(Children, First + Fanout);
      uint32_t *Node = Level.data() + size_t(N) * Fanout;
      for (uint32_t C = First; C < End && C - First < ChildWord; ++C)
        Node[C - First] = Largest[C];
      Node[ChildWord] = First;
      Above[N] = Largest[End - 1];
    }
    Levels.push_back(std::move(Level));
    Largest = std::move(Above);
  } while (Largest.size() > 1);

  // Root first: a level's child numbers become node numbers by adding where
  // the level below starts; the lowest level's are leaf numbers already.
  Out.Height = uint32_t(Levels.size());
  std::vector<uint32_t> Start(Levels.size());
  uint32_t Nodes = 0;
  for (size_t L = Levels.size(); L-- > 0;) {
    Start[L] = Nodes;
    Nodes += uint32_t(Levels[L].size() / Fanout);
  }
  Out.Inner.reserve(size_t(Nodes) * Fanout);
  for (size_t L = Levels.size(); L-- > 0;) {
    if (L > 0)
      for (size_t W = ChildWord; W < Levels[L].size(); W += Fanout)
        Levels[L][W] += Start[L - 1];
    Out.Inner.insert(Out.Inner.end(), Levels[L].begin(), Levels[L].end());
  }
  return Out;
}

} // namespace range
