// The input of the cdc app: the stream a backup tool or dedup store chunks
// (a disk image, a database file, an archive of media and documents), as
// regions one after another of four kinds:
//
// - Random (65% of the regions, 4 KiB to 2 MiB, log-uniform by octaves):
//   compressed, encrypted or media content, where every position cuts with
//   probability 2^-9.
// - Pages (15%, 1 to 64 pages of 4 KiB): a database's or a VM image's pages,
//   each a random used part of 0 to 4096 bytes (a multiple of 8) and zeros
//   to its end: a thread that starts in the zeros runs to the page's end
//   and beyond before it can cut.
// - Fill (5%, 4 KiB to 256 KiB): zeros, as sparse files' holes and
//   unallocated blocks hold: no cut after the run's first 64 bytes, so threads
//   in it run to the maximum.
// - Pattern (15%, 1 to 64 KiB): a random pattern of 1 to 128 bytes repeated
//   (repeated records, separators, dithered images): h repeats with the
//   pattern, so its threads cut within one period (after the minimum) if any
//   position of the pattern cuts, which is the case for 1 - (1 - 2^-9)^p of
//   the patterns of p bytes, else run to the maximum.
//
// Regions start and end on 8-byte boundaries. The layout (kinds and lengths)
// comes from the seed in order, the last region cut at the stream's end, so
// a larger stream of the same seed starts with the same bytes; each region is
// written from its own bench::Rng stream (random content 8 bytes a draw), in
// parallel, so the bytes depend neither on the number of host threads nor on
// floating point.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "CdcScan.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace cdc {

enum class RegionKind : uint8_t { Random, Pages, Fill, Pattern };

struct Region {
  uint64_t FirstWord, Words;
  RegionKind Kind;
};

constexpr uint32_t PageWords = 4096 / 8, MaxPatternBytes = 128;

namespace detail {

// (Lo << k) words times a uniform factor in [1, 2), k uniform in [0, Octaves).
inline uint64_t octaveWords(bench::Rng &R, uint64_t Lo, uint32_t Octaves) {
  const uint64_t Base = Lo << R.below(Octaves);
  return Base + (Base * R.below(1u << 16) >> 16);
}

inline std::vector<Region> layout(uint64_t TotalWords, uint64_t Seed) {
  bench::Rng R = bench::itemRng(Seed, 0);
  std::vector<Region> Regions;
  for (uint64_t First = 0; First < TotalWords;) {
    const uint32_t Percent = R.below(100);
    Region G{First, 0, RegionKind::Random};
    if (Percent < 65) {
      G.Words = octaveWords(R, 4096 / 8, 9);
    } else if (Percent < 80) {
      G.Kind = RegionKind::Pages;
      G.Words = PageWords * (1 + R.below(64));
    } else if (Percent < 85) {
      G.Kind = RegionKind::Fill;
      G.Words = octaveWords(R, 4096 / 8, 6);
    } else {
      G.Kind = RegionKind::Pattern;
      G.Words = octaveWords(R, 1024 / 8, 6);
    }
    G.Words = std::min(G.Words, TotalWords - First);
    First += G.Words;
    Regions.push_back(G);
  }
  return Regions;
}

inline void writeRegion(const Region &G, uint64_t Seed, uint64_t Number, uint64_t *Out) {
  bench::Rng R = bench::itemRng(Seed, 2 + Number);
  uint64_t *W = Out + G.FirstWord;
  switch (G.Kind) {
  case RegionKind::Random:
    for (uint64_t I = 0; I < G.Words; ++I)
      W[I] = R.next();
    break;
  case RegionKind::Pages:
    for (uint64_t Page = 0; Page < G.Words; Page += PageWords) {
      const uint64_t Words = std::min<uint64_t>(PageWords, G.Words - Page);
      const uint64_t Used = std::min<uint64_t>(R.below(PageWords + 1), Words);
      for (uint64_t I = 0; I < Used; ++I)
        W[Page + I] = R.next();
      std::fill(W + Page + Used, W + Page + Words, 0);
    }
    break;
  case RegionKind::Fill:
    std::fill(W, W + G.Words, 0);
    break;
  case RegionKind::Pattern: {
    const uint32_t Period = 1 + R.below(MaxPatternBytes);
    uint8_t Pattern[MaxPatternBytes];
    for (uint32_t K = 0; K < Period; ++K)
      Pattern[K] = uint8_t(R.next());
    uint32_t Phase = 0;
    for (uint64_t I = 0; I < G.Words; ++I) {
      uint64_t Word = 0;
      for (uint32_t K = 0; K < 8; ++K) {
        Word |= uint64_t(Pattern[Phase]) << 8 * K;
        Phase = Phase + 1 == Period ? 0 : Phase + 1;
      }
      W[I] = Word;
    }
    break;
  }
  }
}

} // namespace detail

struct Stream {
  std::vector<Region> Regions;
  std::vector<uint64_t> Words; // Segments x SegmentWords
};

inline Stream generateStream(uint32_t Segments, uint64_t Seed) {
  Stream S;
  S.Words.resize(uint64_t(Segments) * SegmentWords);
  S.Regions = detail::layout(S.Words.size(), Seed);
  bench::parallelFor(S.Regions.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      detail::writeRegion(S.Regions[I], Seed, I, S.Words.data());
  });
  return S;
}

} // namespace cdc
