// The input of the bloom app: the filter of a build relation's keys
// (BloomFilter.h) and a batch of queries, each a list of probe keys stored
// one list after another (CSR: QueryStart[Q] to QueryStart[Q + 1]), as the
// probe side of a semi-join hands a Bloom filter the join keys of each row
// group that survived its own predicate.
//
// Filter: 512 bits per query, a power of two between 2^16 and 2^30 bits (2^29
// bits, 64 MiB, at the default 2^20 queries), with 2^LogBits / 12 members.
//
// Queries: list lengths lognormal (median 24, sigma 1.1, rounded, clamped to
// [1, 512]); how many of a list's keys are members depends on its row group
// (data clustered by time or region matches the build side in some groups
// and not in others): each query draws a member share, U[0, 0.05) for 45%
// of them, U[0.05, 0.95) for 25% and U[0.95, 1] for 30%, and each of its keys
// is a member with that probability. A member key is a uniformly drawn
// member; any other key is no member.
//
// Keys are numbered: number I's key is a seeded bijection of I, members are
// numbers below Members and the other keys numbers from Members on, so no
// other key is a member, and the reference can tell members from the keys
// themselves. Each query draws from its own bench::Rng streams (seeded by
// the seed and the query's number), so the input does not depend on the
// number of host threads.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "BloomFilter.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace bloom {

constexpr uint32_t BitsPerQuery = 512;
constexpr uint32_t MinLogBits = 16, MaxLogBits = 30;
constexpr double LengthMedian = 24, LengthSigma = 1.1;
constexpr uint32_t MaxLength = 512;

// Member shares: (probability of the class, lowest share, highest share).
struct ShareClass {
  double Probability, Low, High;
};
constexpr ShareClass ShareClasses[] = {{0.45, 0.0, 0.05}, {0.25, 0.05, 0.95}, {0.30, 0.95, 1.0}};

// x -> x * a mod 2^64 for odd a is a bijection; its inverse multiplies by
// a^-1, here by Newton's iteration (each step doubles the correct low bits;
// a is its own inverse mod 8).
inline uint64_t inverseOdd(uint64_t A) {
  uint64_t Y = A;
  for (int I = 0; I < 5; ++I)
    Y *= 2 - A * Y;
  return Y;
}

// Key number I: I * Multiplier, its high half xored into its low half, then
// * 0x9e3779b97f4a7c15 + Offset (Multiplier odd and Offset from the seed):
// each step is a bijection of 64-bit words, so is the whole, and numberOf
// undoes it.
class KeyNumbering {
public:
  explicit KeyNumbering(uint64_t Seed) {
    bench::Rng R(Seed ^ 0x6b65796e756d6265ull);
    Multiplier = R.next() | 1;
    Offset = R.next();
  }
  uint64_t operator()(uint64_t I) const {
    uint64_t X = I * Multiplier;
    X ^= X >> 32;
    return X * Golden + Offset;
  }
  uint64_t numberOf(uint64_t Key) const {
    uint64_t X = (Key - Offset) * inverseOdd(Golden);
    X ^= X >> 32;
    return X * inverseOdd(Multiplier);
  }

private:
  static constexpr uint64_t Golden = 0x9e3779b97f4a7c15ull;
  uint64_t Multiplier, Offset;
};

struct Input {
  Filter Bloom;
  KeyNumbering KeyOf;
  std::vector<uint32_t> QueryStart; // queries + 1 offsets into Keys
  std::vector<uint64_t> Keys;
  uint32_t queries() const { return uint32_t(QueryStart.size() - 1); }
};

// log2 of the filter's bits for N queries.
inline uint32_t logBitsFor(uint32_t Queries) {
  uint32_t LogBits = MinLogBits;
  while (LogBits < MaxLogBits && (uint64_t(1) << LogBits) < uint64_t(BitsPerQuery) * Queries)
    ++LogBits;
  return LogBits;
}

// Query Q's stream Stream: the seed and (Q, Stream) through splitmix64's
// finalizer, so streams of neighbouring queries are unrelated.
inline bench::Rng queryStream(uint64_t Seed, uint32_t Q, uint32_t Stream) {
  uint64_t X = Seed * 0x9e3779b97f4a7c15ull + (uint64_t(Q) << 1 | Stream);
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ull;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebull;
  return bench::Rng(X ^ (X >> 31));
}

inline double drawMemberShare(bench::Rng &R) {
  double U = R.uniform01();
  for (const ShareClass &C : ShareClasses) {
    if (U < C.Probability)
      return C.Low + (C.High - C.Low) * R.uniform01();
    U -= C.Probability;
  }
  return ShareClasses[0].Low; // only if rounding left U at the very top
}

inline Input generate(uint32_t Queries, uint64_t Seed) {
  const uint32_t LogBits = logBitsFor(Queries);
  Input In{Filter{}, KeyNumbering(Seed), {}, {}};
  In.Bloom = buildFilter(LogBits, (uint64_t(1) << LogBits) / BitsPerMember, In.KeyOf);
  const uint64_t Members = In.Bloom.Members;

  // Lengths and shares from stream 0, then the offsets, then the keys from
  // stream 1.
  std::vector<uint32_t> Length(Queries);
  std::vector<double> Share(Queries);
  bench::parallelFor(Queries, [&](size_t Begin, size_t End) {
    for (size_t Q = Begin; Q < End; ++Q) {
      bench::Rng R = queryStream(Seed, uint32_t(Q), 0);
      const double L = std::round(R.lognormal(std::log(LengthMedian), LengthSigma));
      Length[Q] = uint32_t(std::clamp(L, 1.0, double(MaxLength)));
      Share[Q] = drawMemberShare(R);
    }
  });
  In.QueryStart.assign(size_t(Queries) + 1, 0);
  for (uint32_t Q = 0; Q < Queries; ++Q)
    In.QueryStart[Q + 1] = In.QueryStart[Q] + Length[Q];
  In.Keys.resize(In.QueryStart[Queries]);
  bench::parallelFor(Queries, [&](size_t Begin, size_t End) {
    for (size_t Q = Begin; Q < End; ++Q) {
      bench::Rng R = queryStream(Seed, uint32_t(Q), 1);
      for (uint32_t E = In.QueryStart[Q]; E < In.QueryStart[Q + 1]; ++E) {
        const bool Member = R.uniform01() < Share[Q];
        const uint64_t Draw = R.next();
        In.Keys[E] = In.KeyOf(Member ? Draw % Members : Members + (Draw >> 1));
      }
    }
  });
  return In;
}

} // namespace bloom
