// The input of the huff app: a block-compressed container as its decoder
// receives it (the layout of GPU deflate, JPEG and zstd literal decoders'
// inputs): one bit stream in which independently Huffman-coded blocks follow
// one another from byte boundaries, the container's index (each block's
// byte offset, symbol count and a checksum of its decoded symbols) and the
// one canonical code, carried as its code lengths.
//
// The source is Zipf-like over the 256 byte values, as text's literals are:
// the symbol of rank r has probability proportional to (r + 1)^-1.25
// (0.28 for the commonest), quantized to multiples of 2^-16, and the ranks
// are given to the byte values in a seeded random order. The code is built
// from those frequencies (HuffCode.h): unlimited, Huffman's longest codes
// would take 12 bits; limited to 11, lengths are 2 to 11 bits, 5.07 bits a
// symbol on average (the entropy is 5.05). Symbol counts per block are
// heavy-tailed, as the sizes of stored objects are: Pareto with exponent 1,
// P(count >= x) = MinSymbols / x, truncated at MaxSymbols (median 32, mean
// ~116, 0.2% of the blocks at 8192). They are drawn as floor(MinSymbols / u)
// for u in (0, 1], so only a correctly rounded division decides them, and
// stay in the order drawn: a warp holds 32 unrelated counts.
//
// Counts and one seed per block come from the seed in order; each block's
// symbols are drawn from its own seed (four symbols from one 64-bit draw),
// once to size the block and once to write it, both in parallel: the same
// bytes whatever the number of host threads.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "HuffCode.h"
#include "HuffDecode.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <utility>
#include <vector>

namespace huff {

constexpr uint32_t AlphabetSize = 256;
constexpr uint32_t ProbabilityBits = 16; // frequencies are multiples of 2^-16
constexpr uint32_t MinSymbols = 16, MaxSymbols = 8192;

struct Container {
  std::vector<uint8_t> CodeLength; // per symbol: the container's header
  std::vector<uint32_t> ByteStart; // blocks + 1 offsets into the stream
  std::vector<uint32_t> Symbols;   // per block
  std::vector<uint64_t> Checksum;  // per block: hashSymbol over its symbols
  // The stream's bytes, held in 32-bit words for the decoder's word loads,
  // with at least one word of zeros after the last block.
  std::vector<uint32_t> Words;

  uint32_t count() const { return uint32_t(Symbols.size()); }
  uint32_t bytes(uint32_t I) const { return ByteStart[I + 1] - ByteStart[I]; }
  const uint8_t *stream() const { return reinterpret_cast<const uint8_t *>(Words.data()); }
};

namespace detail {

struct Source {
  std::vector<uint64_t> Frequency; // per symbol, in units of 2^-ProbabilityBits
  std::vector<uint8_t> SymbolAt;   // 2^ProbabilityBits: a 16-bit draw's symbol
};

inline Source zipfSource(bench::Rng &Random) {
  std::vector<uint8_t> SymbolOfRank(AlphabetSize);
  std::iota(SymbolOfRank.begin(), SymbolOfRank.end(), 0);
  for (uint32_t I = AlphabetSize - 1; I > 0; --I)
    std::swap(SymbolOfRank[I], SymbolOfRank[Random.below(I + 1)]);
  // 2^40 / (r + 1)^1.25 (one product, one division and square roots, all
  // correctly rounded), then scaled to 2^16 in all: rounded down, the few
  // units missing go to the commonest ranks (every rank keeps 17 or more).
  std::vector<uint64_t> Weight(AlphabetSize);
  uint64_t Sum = 0;
  for (uint32_t R = 0; R < AlphabetSize; ++R) {
    const double Rank = R + 1;
    Sum += Weight[R] = uint64_t(0x1p40 / (Rank * std::sqrt(std::sqrt(Rank))));
  }
  Source S{std::vector<uint64_t>(AlphabetSize), std::vector<uint8_t>()};
  uint64_t Given = 0;
  for (uint32_t R = 0; R < AlphabetSize; ++R)
    Given += S.Frequency[SymbolOfRank[R]] = (Weight[R] << ProbabilityBits) / Sum;
  for (uint32_t R = 0; Given < (1ull << ProbabilityBits); ++R, ++Given)
    ++S.Frequency[SymbolOfRank[R]];
  for (uint32_t R = 0; R < AlphabetSize; ++R)
    S.SymbolAt.insert(S.SymbolAt.end(), S.Frequency[SymbolOfRank[R]], SymbolOfRank[R]);
  return S;
}

// Calls Visit(symbol) for each of the block's Count symbols, drawn from its
// seed.
template <class Visit>
void drawBlock(const Source &S, uint64_t Seed, uint32_t Count, const Visit &Take) {
  bench::Rng Random(Seed);
  for (uint32_t K = 0; K < Count; K += 4) {
    uint64_t Draw = Random.next();
    for (uint32_t J = 0; J < 4 && K + J < Count; ++J, Draw >>= 16)
      Take(uint32_t(S.SymbolAt[Draw & 0xffff]));
  }
}

} // namespace detail

// Exits 2 if the stream would not fit 32-bit offsets.
inline Container generateContainer(uint32_t N, uint64_t Seed) {
  bench::Rng Random(Seed);
  const detail::Source Source = detail::zipfSource(Random);
  Container C;
  C.CodeLength = limitedCodeLengths(Source.Frequency, MaxCodeLength);
  requireCompleteCode(C.CodeLength);
  const std::vector<uint32_t> Codes = canonicalCodes(C.CodeLength);

  C.Symbols.resize(N);
  std::vector<uint64_t> BlockSeeds(N);
  for (uint32_t I = 0; I < N; ++I) {
    const double Drawn = MinSymbols / (1.0 - Random.uniform01()); // u in (0, 1]
    C.Symbols[I] = Drawn >= MaxSymbols ? MaxSymbols : uint32_t(Drawn);
    BlockSeeds[I] = Random.next();
  }
  std::vector<uint32_t> Bits(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      detail::drawBlock(Source, BlockSeeds[I], C.Symbols[I],
                        [&](uint32_t S) { Bits[I] += C.CodeLength[S]; });
  });
  C.ByteStart.resize(size_t(N) + 1);
  uint64_t Bytes = 0;
  for (uint32_t I = 0; I < N; ++I) {
    C.ByteStart[I] = uint32_t(Bytes);
    Bytes += (Bits[I] + 7) / 8;
  }
  if (Bytes + 8 > UINT32_MAX) {
    std::fprintf(stderr, "huff: %u blocks hold over 2^32 bytes\n", N);
    std::exit(2);
  }
  C.ByteStart[N] = uint32_t(Bytes);
  C.Words.assign((Bytes + 3) / 4 + 1, 0);

  // Codes are written MSB-first: a code's bits enter Pending from below and
  // leave as bytes from the top of its PendingBits valid bits.
  C.Checksum.resize(N);
  uint8_t *Stream = reinterpret_cast<uint8_t *>(C.Words.data());
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      uint8_t *Out = Stream + C.ByteStart[I];
      uint64_t Pending = 0, Hash = HashBasis;
      uint32_t PendingBits = 0;
      detail::drawBlock(Source, BlockSeeds[I], C.Symbols[I], [&](uint32_t S) {
        Pending = Pending << C.CodeLength[S] | Codes[S];
        PendingBits += C.CodeLength[S];
        for (; PendingBits >= 8; PendingBits -= 8)
          *Out++ = uint8_t(Pending >> (PendingBits - 8));
        Hash = hashSymbol(Hash, S);
      });
      if (PendingBits != 0)
        *Out = uint8_t(Pending << (8 - PendingBits));
      C.Checksum[I] = Hash;
    }
  });
  return C;
}

} // namespace huff
