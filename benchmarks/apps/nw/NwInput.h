// The input of the Needleman-Wunsch app: pairs of DNA sequences, a read and
// the stretch of reference it came from. Read lengths are lognormal (most
// short, a long tail); the partner is the read with sequencing errors
// (substitutions, insertions, deletions), so both lengths vary together.
#pragma once

#include "../common/Random.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace nw {

constexpr uint32_t Alphabet = 4;
constexpr uint32_t MaxLength = 128; // also the kernel's DP row capacity
constexpr int Match = 2, Mismatch = -1, Gap = 2; // Gap: cost per gap base
// Read lengths: lognormal with median 24 and sigma 0.8, clamped.
constexpr double LengthMedian = 24, LengthSigma = 0.8;
constexpr uint32_t MinLength = 8;
// Per-base error rates of the partner sequence.
constexpr double SubstitutionRate = 0.05, InsertionRate = 0.03,
                 DeletionRate = 0.03;

struct Input {
  std::vector<uint8_t> Bases;    // all sequences, concatenated
  std::vector<uint32_t> OffsetA, LengthA; // pair i: first sequence
  std::vector<uint32_t> OffsetB, LengthB; // pair i: second sequence
};

inline Input generate(uint64_t NumPairs, uint64_t Seed) {
  bench::Rng R(Seed);
  Input In;
  std::vector<uint8_t> A, B;
  for (uint64_t P = 0; P < NumPairs; ++P) {
    double L = std::round(R.lognormal(std::log(LengthMedian), LengthSigma));
    uint32_t Len = static_cast<uint32_t>(
        std::clamp(L, double(MinLength), double(MaxLength)));
    A.clear();
    B.clear();
    for (uint32_t J = 0; J < Len; ++J)
      A.push_back(static_cast<uint8_t>(R.below(Alphabet)));
    for (uint8_t Base : A) {
      double U = R.uniform01();
      if (U < DeletionRate)
        continue;
      if (U < DeletionRate + InsertionRate)
        B.push_back(static_cast<uint8_t>(R.below(Alphabet)));
      else if (U < DeletionRate + InsertionRate + SubstitutionRate)
        Base = static_cast<uint8_t>((Base + 1 + R.below(Alphabet - 1)) % Alphabet);
      B.push_back(Base);
    }
    if (B.size() > MaxLength)
      B.resize(MaxLength);
    In.OffsetA.push_back(static_cast<uint32_t>(In.Bases.size()));
    In.LengthA.push_back(Len);
    In.Bases.insert(In.Bases.end(), A.begin(), A.end());
    In.OffsetB.push_back(static_cast<uint32_t>(In.Bases.size()));
    In.LengthB.push_back(static_cast<uint32_t>(B.size()));
    In.Bases.insert(In.Bases.end(), B.begin(), B.end());
  }
  return In;
}

} // namespace nw
