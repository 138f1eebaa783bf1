// The lpm app's lookup structure, built on the host from the routing table
// (LpmTable.h): a variable-stride trie whose root is a direct-indexed table
// of the 2^16 /16s (as the first level of DXR or Lulea), under which every
// /16 that holds longer prefixes has a binary trie, one address bit a level.
//
// Root[A >> 16] holds the next hop of the longest prefix of at most 16 bits
// that covers the /16 (the table's /0 to /16 expanded into it, longer ones
// written last) and the binary trie's node for the /16, if any prefix is
// longer. A node at depth D (16 to 31) is two entries, for bit D of the
// address (0 the most significant) being 0 or 1: each holds the child node
// one bit deeper, if any prefix lies below it, and the next hop of the
// prefix of length D + 1 that ends there, if there is one. Nodes exist only
// on the paths to prefixes, so a walk ends where the address leaves every
// longer prefix's path: an address in a /16 without longer prefixes reads
// its root entry only, one inside a /24 with nothing more specific under it
// 9 entries, one inside a /32 17.
//
// Every entry is 8 bytes, one load: 512 KiB of root and about 15 MiB of
// nodes (two entries, 16 bytes, each) at 2^19 routes.
#pragma once

#include "LpmTable.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace lpm {

constexpr uint32_t RootBits = 16;
constexpr uint32_t NoChild = 0;        // node 0 is never used
constexpr uint32_t NoHop = UINT32_MAX; // no prefix ends at this entry

struct alignas(8) Entry {
  uint32_t Child, NextHop;
};

struct Trie {
  std::vector<Entry> Root;  // 2^RootBits entries, by /16
  std::vector<Entry> Nodes; // node N is entries 2N (bit 0) and 2N + 1 (bit 1)
};

// Table must hold every prefix once; the order does not matter.
inline Trie buildTrie(const std::vector<Prefix> &Table) {
  std::vector<const Prefix *> ByLength(Table.size());
  for (size_t I = 0; I < Table.size(); ++I)
    ByLength[I] = &Table[I];
  // Prefixes of one length are disjoint, so their order does not matter.
  std::sort(ByLength.begin(), ByLength.end(),
            [](const Prefix *A, const Prefix *B) { return A->Length < B->Length; });

  Trie T;
  T.Root.assign(size_t(1) << RootBits, Entry{NoChild, NoHop});
  T.Nodes.assign(2, Entry{NoChild, NoHop});
  auto newNode = [&T] {
    const uint32_t Node = uint32_t(T.Nodes.size() / 2);
    T.Nodes.resize(T.Nodes.size() + 2, Entry{NoChild, NoHop});
    return Node;
  };
  for (const Prefix *P : ByLength) {
    const uint32_t Block = P->Bits >> (32 - RootBits);
    if (P->Length <= RootBits) {
      // Shorter prefixes come first, so a longer one overwrites them.
      const uint32_t Span = 1u << (RootBits - P->Length);
      for (uint32_t B = Block; B < Block + Span; ++B)
        T.Root[B].NextHop = P->NextHop;
      continue;
    }
    if (T.Root[Block].Child == NoChild)
      T.Root[Block].Child = newNode();
    uint32_t Node = T.Root[Block].Child;
    for (uint32_t Depth = RootBits;; ++Depth) {
      const size_t At = 2 * size_t(Node) + ((P->Bits >> (31 - Depth)) & 1);
      if (Depth + 1 == P->Length) {
        T.Nodes[At].NextHop = P->NextHop;
        break;
      }
      if (T.Nodes[At].Child == NoChild) {
        const uint32_t Child = newNode(); // may move T.Nodes
        T.Nodes[At].Child = Child;
      }
      Node = T.Nodes[At].Child;
    }
  }
  return T;
}

} // namespace lpm
