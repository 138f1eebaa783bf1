// The canonical Huffman code of the huff app, built on the host as a
// compressor and a decoder build it: code lengths from the symbol
// frequencies, limited to MaxCodeLength bits by package-merge (Larmore and
// Hirschberg: optimal among codes no longer than the limit); codewords
// assigned canonically from the lengths alone, as deflate does, so the
// container carries only the lengths; and the decoder's lookup table.
#pragma once

#include "HuffDecode.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace huff {

// Lengths of an optimal prefix code for Weights (at least 2, every one
// positive) with no code longer than MaxLength (2^MaxLength >= symbols).
// Package-merge: a symbol of length l is l coins, one of each denomination
// 2^-1 ... 2^-l, each coin weighing the symbol's weight. Starting from the
// smallest denomination, the items of a denomination are paired in weight
// order into packages of the next, merged with that denomination's single
// coins; the 2n - 2 lightest items of denomination 2^-1 then hold each
// symbol's coins, and a symbol's length is how many it holds.
inline std::vector<uint8_t> limitedCodeLengths(const std::vector<uint64_t> &Weights,
                                               uint32_t MaxLength) {
  struct Item {
    uint64_t Weight;
    std::vector<uint16_t> Symbols; // whose coins it holds, one entry per coin
  };
  const size_t N = Weights.size();
  std::vector<Item> Coins(N);
  for (size_t S = 0; S < N; ++S)
    Coins[S] = {Weights[S], {uint16_t(S)}};
  std::sort(Coins.begin(), Coins.end(), [](const Item &A, const Item &B) {
    return A.Weight != B.Weight ? A.Weight < B.Weight : A.Symbols[0] < B.Symbols[0];
  });
  std::vector<Item> Items = Coins;
  for (uint32_t Denomination = MaxLength; Denomination > 1; --Denomination) {
    std::vector<Item> Packages;
    for (size_t I = 0; I + 1 < Items.size(); I += 2) {
      Item P{Items[I].Weight + Items[I + 1].Weight, Items[I].Symbols};
      P.Symbols.insert(P.Symbols.end(), Items[I + 1].Symbols.begin(), Items[I + 1].Symbols.end());
      Packages.push_back(std::move(P));
    }
    Items.clear();
    // Merged by weight, a coin before a package of the same weight.
    size_t C = 0, P = 0;
    while (C < Coins.size() || P < Packages.size())
      if (P == Packages.size() || (C < Coins.size() && Coins[C].Weight <= Packages[P].Weight))
        Items.push_back(Coins[C++]);
      else
        Items.push_back(std::move(Packages[P++]));
  }
  std::vector<uint8_t> Length(N, 0);
  for (size_t I = 0; I < 2 * N - 2; ++I)
    for (uint16_t S : Items[I].Symbols)
      ++Length[S];
  return Length;
}

// Canonical codewords for lengths of 1 to MaxCodeLength: shorter codes
// first, and within a length in symbol order, consecutive values; the first
// code of a length is the code after the last of the length before, shifted
// left by one.
inline std::vector<uint32_t> canonicalCodes(const std::vector<uint8_t> &Length) {
  uint32_t OfLength[MaxCodeLength + 1] = {}, Next[MaxCodeLength + 1] = {};
  for (uint8_t L : Length)
    ++OfLength[L];
  for (uint32_t L = 1, Code = 0; L <= MaxCodeLength; ++L) {
    Code = (Code + OfLength[L - 1]) << 1;
    Next[L] = Code;
  }
  std::vector<uint32_t> Codes(Length.size());
  for (size_t S = 0; S < Length.size(); ++S)
    Codes[S] = Next[Length[S]]++;
  return Codes;
}

// Exits 1 unless Length is a complete prefix code of lengths 1 to
// MaxCodeLength (Kraft's sum exactly 1), which package-merge guarantees: a
// failure is a bug of the generator.
inline void requireCompleteCode(const std::vector<uint8_t> &Length) {
  uint64_t Kraft = 0; // in units of 2^-MaxCodeLength
  for (uint8_t L : Length)
    Kraft += L == 0 || L > MaxCodeLength ? 1ull << 32 : 1ull << (MaxCodeLength - L);
  if (Kraft != 1ull << MaxCodeLength) {
    std::fprintf(stderr, "huff: the code lengths are not a complete prefix code\n");
    std::exit(1);
  }
}

// The kernel's table for a complete code: entry i decodes the code that is
// a prefix of the TableBits-bit value i. A code of length l fills
// 2^(TableBits - l) consecutive entries, and a complete code fills every
// entry once.
inline std::vector<uint16_t> decodeTable(const std::vector<uint8_t> &Length) {
  const std::vector<uint32_t> Codes = canonicalCodes(Length);
  std::vector<uint16_t> Table(size_t(1) << TableBits);
  for (uint32_t S = 0; S < Length.size(); ++S)
    std::fill_n(Table.begin() + (Codes[S] << (TableBits - Length[S])),
                1u << (TableBits - Length[S]), tableEntry(S, Length[S]));
  return Table;
}

} // namespace huff
