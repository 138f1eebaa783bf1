// The chain app's stored keys: NodeCount (2^24) distinct 64-bit keys, each
// with a uint32 value, as a GPU key-value cache or a hash aggregation holds
// them. A key is a composite (group, item): its high word is the group's id,
// its low word the item's id within the group, and the table hashes the
// group alone (ChainTable.h), so all of a group's items share one chain.
//
// Group sizes are a power law, P(m >= x) = x^(-4/3) (Zipf's law for the
// items per user, per customer, per source address), redrawn above MaxGroup
// (2,048): m = floor(u^(-3/4)) for u uniform in (0, 1], computed as 1 / (s
// sqrt(s)) with s = sqrt(u), correctly rounded operations only, so the sizes
// do not depend on the host's libm. Sizes are drawn one group after another
// from one bench::Rng stream until the groups hold NodeCount items (the last
// one cut short): median 1, mean ~3.3, ~5.1 M groups, a few hundred of 1,000
// items or more.
//
// Ids are seeded bijections, so keys are distinct and absent keys are easy
// to make: group g's id is fmix32(g IdMul + IdAdd) (an odd multiplier and an
// offset from the seed, then murmur3's finalizer), item k's id within the
// group with id Gid is fmix32(k ItemMul + Gid). Groups numbered G or more
// and items numbered m_g or more of group g are absent; the reference
// (ChainReference.h) inverts both maps to decode a probe key.
//
// Node i (in group order: group 0's items, then group 1's...) is group g's
// item i - GroupStart[g]; its value is the first draw of its own
// bench::itemRng stream.
#pragma once

#include "../common/Random.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#if defined(__CUDACC__)
#define CHAIN_HD __host__ __device__
#else
#define CHAIN_HD
#endif

namespace chain {

constexpr uint32_t NodeBits = 24, NodeCount = 1u << NodeBits;
constexpr uint32_t MaxGroup = 2048;
constexpr uint32_t ItemMul = 0x9E3779B1u;

// Streams of the seed's bench::itemRng items: the ids' parameters, the
// group sizes, the pool's slot map (ChainTable.h), then the values (one item
// a node) and the probes (ChainProbes.h).
constexpr uint64_t ParameterItem = 0, SizeItem = 1, SlotItem = 2, FirstValueItem = 1ull << 32,
                   FirstProbeItem = 2ull << 32;

// murmur3's 32-bit finalizer, a bijection.
CHAIN_HD inline uint32_t fmix32(uint32_t H) {
  H ^= H >> 16;
  H *= 0x85EBCA6Bu;
  H ^= H >> 13;
  H *= 0xC2B2AE35u;
  H ^= H >> 16;
  return H;
}

// The inverse of an odd number mod 2^32 (Newton's iteration).
constexpr uint32_t inverseOdd(uint32_t A) {
  uint32_t X = A; // right to 3 bits
  for (int I = 0; I < 5; ++I)
    X *= 2u - A * X;
  return X;
}
static_assert(0x85EBCA6Bu * inverseOdd(0x85EBCA6Bu) == 1u, "inverseOdd");

// fmix32's inverse, for the reference's decoding.
inline uint32_t unfmix32(uint32_t H) {
  H ^= H >> 16;
  H *= inverseOdd(0xC2B2AE35u);
  H ^= H >> 13 ^ H >> 26;
  H *= inverseOdd(0x85EBCA6Bu);
  H ^= H >> 16;
  return H;
}

struct KeySet {
  uint64_t Seed;
  uint32_t IdMul, IdAdd;            // group ids
  std::vector<uint32_t> GroupStart; // groups() + 1 node numbers, the last NodeCount

  uint32_t groups() const { return uint32_t(GroupStart.size() - 1); }
  uint32_t groupSize(uint32_t G) const { return GroupStart[G + 1] - GroupStart[G]; }
  uint32_t groupId(uint32_t G) const { return fmix32(G * IdMul + IdAdd); }
  static uint32_t itemId(uint32_t GroupId, uint32_t K) { return fmix32(K * ItemMul + GroupId); }
  static uint64_t makeKey(uint32_t GroupId, uint32_t ItemId) {
    return uint64_t(GroupId) << 32 | ItemId;
  }
  // Group G's item K (present or not).
  uint64_t key(uint32_t G, uint32_t K) const {
    const uint32_t Gid = groupId(G);
    return makeKey(Gid, itemId(Gid, K));
  }
  uint32_t value(uint32_t I) const {
    return uint32_t(bench::itemRng(Seed, FirstValueItem + I).next());
  }
  // The inverses: the group number of a group id and the item number of an
  // item id within its group.
  uint32_t groupNumber(uint32_t GroupId) const {
    return (unfmix32(GroupId) - IdAdd) * inverseOdd(IdMul);
  }
  static uint32_t itemNumber(uint32_t GroupId, uint32_t ItemId) {
    return (unfmix32(ItemId) - GroupId) * inverseOdd(ItemMul);
  }
};

// A group size: floor(u^(-3/4)) for u uniform in (0, 1], redrawn above
// MaxGroup.
inline uint32_t drawGroupSize(bench::Rng &R) {
  for (;;) {
    const double U = double((R.next() >> 11) + 1) * 0x1.0p-53;
    const double S = std::sqrt(U);
    const double M = 1.0 / (S * std::sqrt(S));
    if (M < double(MaxGroup + 1))
      return uint32_t(M);
  }
}

inline KeySet generateKeys(uint64_t Seed) {
  KeySet S;
  S.Seed = Seed;
  bench::Rng P = bench::itemRng(Seed, ParameterItem);
  S.IdMul = uint32_t(P.next()) | 1u;
  S.IdAdd = uint32_t(P.next());
  bench::Rng R = bench::itemRng(Seed, SizeItem);
  S.GroupStart.reserve(NodeCount / 3 + 1);
  S.GroupStart.push_back(0);
  for (uint32_t Filled = 0; Filled < NodeCount;) {
    Filled += std::min(drawGroupSize(R), NodeCount - Filled);
    S.GroupStart.push_back(Filled);
  }
  return S;
}

} // namespace chain
