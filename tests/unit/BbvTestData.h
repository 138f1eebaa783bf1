// BBV matrices for the model and regrouping tests: built row by row (one
// BBV per thread) and stored block-major as profiles store them.
#pragma once
#include "model/BbvView.h"

#include <cstdint>
#include <random>
#include <vector>

namespace divopt::test {

struct Bbvs {
  uint32_t Threads = 0, Blocks = 0;
  std::vector<uint32_t> Counts; // counts[bb * Threads + t]

  Bbvs(uint32_t Threads, uint32_t Blocks)
      : Threads(Threads), Blocks(Blocks), Counts(uint64_t(Threads) * Blocks, 0) {}
  explicit Bbvs(const std::vector<std::vector<uint32_t>> &Rows)
      : Bbvs(uint32_t(Rows.size()), Rows.empty() ? 0 : uint32_t(Rows[0].size())) {
    for (uint32_t T = 0; T < Threads; ++T)
      setRow(T, Rows[T]);
  }

  void setRow(uint32_t T, const std::vector<uint32_t> &Row) {
    for (uint32_t Bb = 0; Bb < Blocks; ++Bb)
      Counts[uint64_t(Bb) * Threads + T] = Row[Bb];
  }
  BbvView view() const { return {Counts.data(), Threads, Blocks}; }
};

// Threads drawn from Patterns random BBVs (so that some are identical),
// counts below MaxCount: a kernel whose threads take a few paths.
inline Bbvs randomBbvs(uint32_t Threads, uint32_t Blocks, uint32_t Patterns, uint32_t MaxCount,
                       uint32_t Seed) {
  std::mt19937 Rng(Seed);
  std::vector<std::vector<uint32_t>> P(Patterns, std::vector<uint32_t>(Blocks));
  for (auto &Row : P)
    for (uint32_t &C : Row)
      C = Rng() % MaxCount;
  Bbvs B(Threads, Blocks);
  for (uint32_t T = 0; T < Threads; ++T)
    B.setRow(T, P[Rng() % Patterns]);
  return B;
}

inline bool isPermutation(const std::vector<uint32_t> &D, uint32_t N) {
  if (D.size() != N)
    return false;
  std::vector<bool> Seen(N, false);
  for (uint32_t L : D) {
    if (L >= N || Seen[L])
      return false;
    Seen[L] = true;
  }
  return true;
}

} // namespace divopt::test
