// The input of the queens app: the subproblems of counting the solutions of
// the 16-queens puzzle, split after the first PrefixRows rows. A prefix is a
// placement of one queen in each of those rows with no two attacking each
// other, given as the three masks the next row sees (QueensCount.h). Every
// valid prefix is a subproblem (no symmetry is folded away), so their
// completions add up to the puzzle's 14,772,512 solutions. The host
// enumerates them depth first, then deals them out in a seeded random order:
// in enumeration order neighbouring prefixes share their first rows and
// their subtrees are of more alike sizes (warps of 32 use 55% of their lanes
// rather than 42%); shuffled, the seed picks the input, and a smaller --size
// is a random sample of the whole search.
#pragma once

#include "../common/Random.h"
#include "QueensCount.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace queens {

// The number of valid placements of queens on the first 6 rows of a 16 x 16
// board: the default and largest size.
constexpr uint32_t PrefixCount = 838816;

// Appends every prefix that extends Board, whose next row is Row, in the
// order a depth-first search that tries the lowest free column first meets
// them.
inline void appendPrefixes(const Prefix &Board, uint32_t Row, std::vector<Prefix> &Out) {
  if (Row == PrefixRows) {
    Out.push_back(Board);
    return;
  }
  for (uint32_t Free = freeColumns(Board); Free != 0; Free &= Free - 1)
    appendPrefixes(place(Board, Free & (0u - Free)), Row + 1, Out);
}

// The first Size prefixes of a seeded shuffle (Fisher-Yates) of all of them;
// Size <= PrefixCount.
inline std::vector<Prefix> generatePrefixes(uint32_t Size, uint64_t Seed) {
  std::vector<Prefix> All;
  All.reserve(PrefixCount);
  appendPrefixes(Prefix{0, 0, 0}, 0, All);
  bench::Rng R(Seed);
  for (uint32_t I = uint32_t(All.size()) - 1; I > 0; --I)
    std::swap(All[I], All[R.below(I + 1)]);
  All.resize(Size);
  return All;
}

} // namespace queens
