// The input of the Smith-Waterman app: one protein query against a database
// whose sequence lengths are lognormal (most short, a long tail), as in
// protein databases; residues uniform over the 20 amino acids.
#pragma once

#include "../common/Random.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace sw {

constexpr uint32_t Alphabet = 20;
constexpr uint32_t QueryLength = 64; // also the kernel's DP row capacity
constexpr int GapOpen = 11;          // cost of a gap's first residue
constexpr int GapExtend = 1;         // cost of each further residue
// Database lengths: lognormal with median 40 and sigma 0.9, clamped.
constexpr double LengthMedian = 40, LengthSigma = 0.9;
constexpr uint32_t MinLength = 10, MaxLength = 1500;

// A fixed BLOSUM-shaped substitution score of our own: a positive diagonal
// that differs by residue, off-diagonal scores in [-4, 1] from a hash of the
// unordered pair, so the matrix is symmetric.
inline int substitution(uint32_t A, uint32_t B) {
  if (A == B)
    return 4 + static_cast<int>((A * 7) % 8);
  uint32_t Lo = std::min(A, B), Hi = std::max(A, B);
  uint32_t H = (Lo * 31 + Hi) * 2654435761u;
  return -4 + static_cast<int>((H >> 16) % 6);
}

struct Input {
  std::vector<uint8_t> Query;     // QueryLength residues
  std::vector<uint8_t> Residues;  // all database sequences, concatenated
  std::vector<uint32_t> Offsets;  // start of sequence i in Residues
  std::vector<uint32_t> Lengths;  // length of sequence i
  // Query profile: Profile[c * QueryLength + i] = substitution(Query[i], c),
  // so the kernel reads one row per database residue.
  std::vector<int> Profile;
};

inline Input generate(uint64_t NumSequences, uint64_t Seed) {
  bench::Rng R(Seed);
  Input In;
  for (uint32_t I = 0; I < QueryLength; ++I)
    In.Query.push_back(static_cast<uint8_t>(R.below(Alphabet)));
  In.Offsets.reserve(NumSequences);
  In.Lengths.reserve(NumSequences);
  for (uint64_t S = 0; S < NumSequences; ++S) {
    double L = std::round(R.lognormal(std::log(LengthMedian), LengthSigma));
    uint32_t Len = static_cast<uint32_t>(
        std::clamp(L, double(MinLength), double(MaxLength)));
    In.Offsets.push_back(static_cast<uint32_t>(In.Residues.size()));
    In.Lengths.push_back(Len);
    for (uint32_t J = 0; J < Len; ++J)
      In.Residues.push_back(static_cast<uint8_t>(R.below(Alphabet)));
  }
  for (uint32_t C = 0; C < Alphabet; ++C)
    for (uint32_t I = 0; I < QueryLength; ++I)
      In.Profile.push_back(substitution(In.Query[I], C));
  return In;
}

} // namespace sw
