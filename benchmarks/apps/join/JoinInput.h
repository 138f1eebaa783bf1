// The input of the join app: a build relation of (key, payload) rows with
// skewed keys, already in the hash table (JoinTable.h), and the probe
// relation, one key per thread.
//
// Build: the table has 4 slots per probe key, rounded up to a power of two
// (2^24 slots for the default 2^22 probe keys), filled to a load factor of
// 0.7 (11,744,051 rows). Keys are drawn one after another, each with m rows,
// m from a discrete power law, P(m >= x) = x^-2.2 for x = 1 to 256 (Zipf's
// law for frequencies): 78% of the keys have one row, one in 440 has 16 or
// more, one in 9,400 has 64 or more, and a third of the rows are a key's
// second or later row. The relation lists a key's rows together; payloads
// are random. Which slots the table fills does not depend on the rows' order
// (only which row sits in which of them does), and neither does a probe's
// result.
//
// Probe: 25% of the probe keys have no build row (a probe walks from its
// home to the first empty slot and finds nothing); the others are the key of
// a uniformly drawn build row, so both relations share the skew and a key
// with m rows is probed m times as often as a key with one. A key's probe
// reads at least m + 1 slots, and a probe whose home falls inside a hot
// key's run, or the cluster such a run grows, reads to the cluster's end
// too: 1 to about a thousand slots.
//
// Keys are numbered; key number I's value is a seeded bijection of I, so
// distinct numbers give distinct keys, and the absent probe keys are numbers
// past the build's. Every number comes from one bench::Rng stream: the input
// does not depend on the host's threads.
#pragma once

#include "../common/Random.h"
#include "JoinTable.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace join {

constexpr uint32_t SlotsPerProbe = 4;
constexpr uint32_t MinSlotBits = 10;
constexpr double LoadFactor = 0.7;
constexpr double MultiplicityExponent = 2.2;
constexpr uint32_t MaxMultiplicity = 256;
constexpr double AbsentShare = 0.25;

struct Input {
  uint32_t SlotBits = 0;
  uint32_t DistinctKeys = 0;
  std::vector<Row> Rows;  // the build relation
  std::vector<Row> Table; // 2^SlotBits slots
  std::vector<uint32_t> ProbeKeys;
};

// log2 of the table's slots for Probes probe keys.
inline uint32_t slotBitsFor(uint32_t Probes) {
  uint32_t Bits = MinSlotBits;
  while ((uint64_t(1) << Bits) < uint64_t(SlotsPerProbe) * Probes)
    ++Bits;
  return Bits;
}

// Key number I's value: an odd multiplier and an offset from the seed, then
// murmur3's 32-bit finalizer, all bijections of the 32-bit words. The one
// number that would give EmptyKey takes the value of number 2^32 - 1, which
// is never used.
class KeyNumbering {
public:
  explicit KeyNumbering(bench::Rng &R)
      : Multiplier(uint32_t(R.next()) | 1), Offset(uint32_t(R.next())) {}
  uint32_t operator()(uint32_t I) const {
    const uint32_t Value = mix(I);
    return Value == EmptyKey ? mix(UINT32_MAX) : Value;
  }

private:
  uint32_t mix(uint32_t I) const {
    uint32_t H = I * Multiplier + Offset;
    H ^= H >> 16;
    H *= 0x85EBCA6Bu;
    H ^= H >> 13;
    H *= 0xC2B2AE35u;
    return H ^ (H >> 16);
  }
  uint32_t Multiplier, Offset;
};

// floor(u^(-1 / exponent)) for u uniform in (0, 1], capped: P(m >= x) = x^-exponent.
inline uint32_t drawMultiplicity(bench::Rng &R) {
  const double M = std::floor(std::pow(1.0 - R.uniform01(), -1.0 / MultiplicityExponent));
  return M >= MaxMultiplicity ? MaxMultiplicity : uint32_t(M);
}

inline Input generate(uint32_t Probes, uint64_t Seed) {
  bench::Rng R(Seed);
  const KeyNumbering KeyOf(R);
  Input In;
  In.SlotBits = slotBitsFor(Probes);
  const uint32_t Rows = uint32_t(LoadFactor * double(uint64_t(1) << In.SlotBits));
  In.Rows.reserve(Rows);
  while (In.Rows.size() < Rows) {
    const uint32_t Key = KeyOf(In.DistinctKeys++);
    const uint32_t M = std::min<uint32_t>(drawMultiplicity(R), Rows - uint32_t(In.Rows.size()));
    for (uint32_t J = 0; J < M; ++J)
      In.Rows.push_back(Row{Key, uint32_t(R.next())});
  }
  In.Table = buildTable(In.Rows, In.SlotBits);
  In.ProbeKeys.resize(Probes);
  for (uint32_t &Key : In.ProbeKeys)
    Key = R.uniform01() < AbsentShare ? KeyOf(In.DistinctKeys + R.below(In.DistinctKeys))
                                      : In.Rows[R.below(Rows)].Key;
  return In;
}

} // namespace join
