// The reference index of the exact-matching app: the suffix array of the
// reference (suffix start positions in lexicographic order, a suffix that is
// a prefix of another sorting first), built on the host. Suffixes are
// bucketed by their first BucketBases bases with a counting sort, buckets are
// sorted by comparing from there on, and the few suffixes shorter than a
// bucket key are inserted at the end.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace mum {

// Whether the suffix at A sorts before the suffix at B, given that they agree
// on their first From bases.
inline bool suffixLess(const std::vector<uint8_t> &Text, uint32_t A, uint32_t B, uint32_t From) {
  const size_t N = Text.size();
  for (size_t I = From;; ++I) {
    if (A + I == N || B + I == N)
      return A + I == N && B + I != N;
    if (Text[A + I] != Text[B + I])
      return Text[A + I] < Text[B + I];
  }
}

inline std::vector<uint32_t> buildSuffixArray(const std::vector<uint8_t> &Text) {
  constexpr uint32_t BucketBases = 12;
  const uint32_t N = static_cast<uint32_t>(Text.size());
  if (N < BucketBases) {
    std::vector<uint32_t> Sa(N);
    for (uint32_t I = 0; I < N; ++I)
      Sa[I] = I;
    std::sort(Sa.begin(), Sa.end(),
              [&](uint32_t A, uint32_t B) { return suffixLess(Text, A, B, 0); });
    return Sa;
  }
  const uint32_t Full = N - BucketBases + 1; // suffixes with a whole bucket key
  std::vector<uint32_t> Key(Full);
  uint32_t Code = 0;
  for (uint32_t I = 0; I < N; ++I) {
    Code = ((Code << 2) | Text[I]) & ((1u << (2 * BucketBases)) - 1);
    if (I + 1 >= BucketBases)
      Key[I + 1 - BucketBases] = Code;
  }
  std::vector<uint32_t> Start((1u << (2 * BucketBases)) + 1, 0);
  for (uint32_t K : Key)
    ++Start[K + 1];
  for (size_t B = 1; B < Start.size(); ++B)
    Start[B] += Start[B - 1];
  std::vector<uint32_t> Sa(Full);
  {
    std::vector<uint32_t> Next(Start.begin(), Start.end() - 1);
    for (uint32_t I = 0; I < Full; ++I)
      Sa[Next[Key[I]]++] = I;
  }
  for (size_t B = 0; B + 1 < Start.size(); ++B)
    if (Start[B + 1] - Start[B] > 1)
      std::sort(Sa.begin() + Start[B], Sa.begin() + Start[B + 1],
                [&](uint32_t A, uint32_t C) { return suffixLess(Text, A, C, BucketBases); });
  for (uint32_t I = Full; I < N; ++I)
    Sa.insert(std::lower_bound(Sa.begin(), Sa.end(), I,
                               [&](uint32_t A, uint32_t B) { return suffixLess(Text, A, B, 0); }),
              I);
  return Sa;
}

} // namespace mum

namespace mum {

// For --check: the first index at which Sa is not a sorted permutation of the
// text's suffixes, or Sa.size() if it is one.
inline size_t firstSuffixArrayError(const std::vector<uint8_t> &Text,
                                    const std::vector<uint32_t> &Sa) {
  if (Sa.size() != Text.size())
    return std::min(Sa.size(), Text.size());
  std::vector<bool> Seen(Text.size());
  for (size_t I = 0; I < Sa.size(); ++I) {
    if (Sa[I] >= Text.size() || Seen[Sa[I]] || (I > 0 && !suffixLess(Text, Sa[I - 1], Sa[I], 0)))
      return I;
    Seen[Sa[I]] = true;
  }
  return Sa.size();
}

} // namespace mum
