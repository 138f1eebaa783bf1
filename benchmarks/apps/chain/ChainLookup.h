// The per-thread work of the chain app, shared by its kernels (and the
// hand-written key) and run on the host for the tests: look one key up in
// the chained hash table (ChainTable.h). The lookup reads its bucket's head
// and walks the chain, one 16-byte node a step, comparing keys, until it
// finds the key or the chain ends. Stored keys are distinct (a cache or an
// aggregation table updates a key's node rather than adding another), so a
// hit stops at its node: its work is the node's depth in the chain, uniform
// over the chain for a key drawn at random, where a miss reads the whole
// chain. Threads diverge on the walk's length: 0 nodes for a key whose bucket
// is empty, a few in most buckets, up to thousands in the buckets of the
// largest groups.
#pragma once

#include "ChainTable.h"

#include <cstdint>

namespace chain {

// A lookup's result: the node that holds the key (NoNode for a miss), its
// value (0 for a miss) and the nodes the walk read.
struct Lookup {
  uint32_t Index, Value, Visited;
};

// Always inlined: each kernel then holds the walk itself, where divopt's
// profile counts it (a call is one instruction to it).
CHAIN_HD inline __attribute__((always_inline)) Lookup lookup(const uint32_t *Heads,
                                                             const Node *Nodes, uint64_t Key) {
  Lookup L{NoNode, 0, 0};
  for (uint32_t P = Heads[bucketOf(Key)]; P != NoNode;) {
    const Node N = loadNode(Nodes, P);
    ++L.Visited;
    if (N.Key == Key) {
      L.Index = P;
      L.Value = N.Value;
      break;
    }
    P = N.Next;
  }
  return L;
}

// The hand-written key, the lookup's exact work: the head and the nodes read.
CHAIN_HD inline uint32_t work(const Lookup &L) { return L.Visited + 1; }

} // namespace chain
