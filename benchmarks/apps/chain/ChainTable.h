// The chain app's hash table: separate chaining, as a GPU key-value cache
// or a hash aggregation with overflow chains keeps its entries.
//
// Layout: BucketCount (2^22) bucket heads, each a uint32 node index or
// NoNode (16 MiB), and a pool of NodeCount (2^24) nodes of 16 bytes, the
// key (uint64), the value and the next node's index (NoNode ends a chain):
// 256 MiB, five times the GPU's L2.
//
// Hash: a key's bucket is the top BucketBits bits of its high word (the
// group's id, ChainKeys.h) times 0x9E3779B1 mod 2^32 (Fibonacci hashing).
// The item is not hashed: the table keeps a group's entries in one chain,
// as a table keyed on (group, item) that hashes its leading column does,
// so the chains' lengths follow the group sizes' power law: most buckets
// hold 0 to 3 nodes, the buckets of the largest groups thousands.
//
// Allocation: the keys arrive in a random order, and a bump allocator hands
// out the pool's nodes in arrival order; node i (ChainKeys.h's group order)
// arrives as number slotOf(i), a seeded bijection of [0, NodeCount). Each
// arrival is pushed onto its bucket's chain (it becomes the head, its Next
// the old head), so a chain lists its bucket's nodes from the latest to the
// earliest and its nodes are scattered over the whole pool: every step of a
// walk is a dependent load from an unrelated line.
#pragma once

#include "../common/ParallelFor.h"
#include "ChainKeys.h"

#include <cstdint>
#include <vector>

namespace chain {

constexpr uint32_t BucketBits = 22, BucketCount = 1u << BucketBits;
constexpr uint32_t NoNode = UINT32_MAX;

// Aligned to 16 bytes: a node is one 16-byte load.
struct alignas(16) Node {
  uint64_t Key;
  uint32_t Value, Next;
};
static_assert(sizeof(Node) == 16, "a node is 16 bytes");

// Node P of the pool, read with one 16-byte load on the device (a copy of
// the struct compiles to two).
CHAIN_HD inline Node loadNode(const Node *Nodes, uint32_t P) {
#if defined(__CUDA_ARCH__)
  const ulonglong2 W = *reinterpret_cast<const ulonglong2 *>(Nodes + P);
  return Node{W.x, uint32_t(W.y), uint32_t(W.y >> 32)};
#else
  return Nodes[P];
#endif
}

CHAIN_HD inline uint32_t bucketOf(uint64_t Key) {
  return (uint32_t(Key >> 32) * 0x9E3779B1u) >> (32 - BucketBits);
}

// Node I's place in the pool, a bijection of [0, NodeCount): multiplications
// by odd numbers and right xorshifts mod 2^NodeBits, with the seed's
// multipliers and offset.
struct SlotMap {
  uint32_t Mul[3], Add;
  explicit SlotMap(uint64_t Seed) {
    bench::Rng R = bench::itemRng(Seed, SlotItem);
    for (uint32_t &M : Mul)
      M = uint32_t(R.next()) | 1u;
    Add = uint32_t(R.next());
  }
  uint32_t operator()(uint32_t I) const {
    constexpr uint32_t Mask = NodeCount - 1;
    uint32_t X = (I + Add) & Mask;
    X = (X * Mul[0]) & Mask;
    X ^= X >> 12;
    X = (X * Mul[1]) & Mask;
    X ^= X >> 11;
    X = (X * Mul[2]) & Mask;
    X ^= X >> 13;
    return X;
  }
};

struct Table {
  std::vector<uint32_t> Heads; // BucketCount
  std::vector<Node> Nodes;     // NodeCount
};

// Fills the pool (node i at slotOf(i)), then inserts the nodes in slot
// order, each at the head of its bucket's chain.
inline Table buildTable(const KeySet &S) {
  Table T{std::vector<uint32_t>(BucketCount, NoNode), std::vector<Node>(NodeCount)};
  const SlotMap SlotOf(S.Seed);
  bench::parallelFor(S.groups(), [&](size_t Begin, size_t End) {
    for (size_t G = Begin; G < End; ++G) {
      const uint32_t Gid = S.groupId(uint32_t(G));
      for (uint32_t I = S.GroupStart[G]; I < S.GroupStart[G + 1]; ++I)
        T.Nodes[SlotOf(I)] = Node{KeySet::makeKey(Gid, KeySet::itemId(Gid, I - S.GroupStart[G])),
                                  S.value(I), NoNode};
    }
  });
  for (uint32_t P = 0; P < NodeCount; ++P) {
    uint32_t &Head = T.Heads[bucketOf(T.Nodes[P].Key)];
    T.Nodes[P].Next = Head;
    Head = P;
  }
  return T;
}

} // namespace chain
