// The input of the exact-matching app: a generated reference genome and DNA
// queries whose lengths are lognormal (median 60 bases, 20 to 2000: most
// short, a long tail). 85% of the queries come from the reference as a
// related genome would have it, copied from a random place with point
// differences at a per-query rate of 0 to 5%; the rest are novel sequence
// that matches only by chance. Bases are 2-bit codes, one per byte.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace mum {

constexpr uint32_t ReferenceLength = 1u << 24;
constexpr double LengthMedian = 60, LengthSigma = 0.8;
constexpr uint32_t MinLength = 20, MaxLength = 2000;
constexpr double RelatedShare = 0.85, MaxDifferenceRate = 0.05;

struct Input {
  std::vector<uint8_t> Reference;
  std::vector<uint8_t> Bases;    // all queries, concatenated
  std::vector<uint32_t> Offsets; // start of query i in Bases
  std::vector<uint32_t> Lengths; // length of query i
};

// An independent, reproducible stream for query I of seed Seed.
inline uint64_t querySeed(uint64_t Seed, uint64_t I) {
  return bench::Rng(Seed ^ (I * 0xd1b54a32d192ed03ULL)).next();
}

inline Input generate(uint64_t Queries, uint64_t Seed) {
  Input In;
  bench::Rng R(Seed);
  In.Reference.resize(ReferenceLength);
  for (uint32_t I = 0; I < ReferenceLength; I += 32) {
    uint64_t Bits = R.next();
    for (uint32_t J = 0; J < 32; ++J)
      In.Reference[I + J] = static_cast<uint8_t>((Bits >> (2 * J)) & 3);
  }
  In.Offsets.resize(Queries);
  In.Lengths.resize(Queries);
  uint64_t Total = 0;
  for (uint64_t I = 0; I < Queries; ++I) {
    double L = std::round(R.lognormal(std::log(LengthMedian), LengthSigma));
    In.Lengths[I] = static_cast<uint32_t>(std::clamp(L, double(MinLength), double(MaxLength)));
    In.Offsets[I] = static_cast<uint32_t>(Total);
    Total += In.Lengths[I];
  }
  In.Bases.resize(Total);
  bench::parallelFor(Queries, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng Rq(querySeed(Seed, I));
      const uint32_t L = In.Lengths[I];
      uint8_t *Out = &In.Bases[In.Offsets[I]];
      if (Rq.uniform01() < RelatedShare) {
        const uint32_t Start = Rq.below(ReferenceLength - L + 1);
        const double Rate = Rq.uniform01() * MaxDifferenceRate;
        for (uint32_t J = 0; J < L; ++J) {
          Out[J] = In.Reference[Start + J];
          if (Rq.uniform01() < Rate)
            Out[J] = static_cast<uint8_t>((Out[J] + 1 + Rq.below(3)) & 3);
        }
      } else {
        for (uint32_t J = 0; J < L; ++J)
          Out[J] = static_cast<uint8_t>(Rq.below(4));
      }
    }
  });
  return In;
}

} // namespace mum
