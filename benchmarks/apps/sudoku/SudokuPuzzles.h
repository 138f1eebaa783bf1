// The input of the sudoku app: a batch of 9x9 puzzles, as a puzzle generator
// or validator hands them to a solver by the thousand. Puzzle i is cut out of
// a solved grid of its own: the pattern grid, whose cell (r, c) holds digit
// (3 (r mod 3) + floor(r / 3) + c) mod 9 + 1, with its digits relabelled, its
// bands and the rows within each band, its stacks and the columns within
// each stack permuted, and transposed or not, all at random; then a random
// set of G cells keeps its digits, G uniform over MinGivens to MaxGivens, and
// the rest are emptied. Nothing checks that the solution is unique: the
// solver stops at the first it finds, which need not be the grid the puzzle
// was cut from.
//
// Each puzzle draws from its own bench::itemRng stream, seeded by the seed
// and the puzzle's number, with integer draws only, so generation runs in
// parallel and the input depends neither on the number of host threads nor
// on floating point. A puzzle is 9 rows of decimal digits (SudokuSolve.h).
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "SudokuSolve.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace sudoku {

constexpr uint32_t MinGivens = 22, MaxGivens = 40;
static_assert(MinGivens <= MaxGivens && MaxGivens <= Cells, "givens out of range");

struct Batch {
  std::vector<uint32_t> Rows; // 9 a puzzle
  uint32_t puzzles() const { return uint32_t(Rows.size() / 9); }
  const uint32_t *puzzle(uint32_t I) const { return Rows.data() + 9 * size_t(I); }
};

namespace detail {

// A uniformly random order of 0 .. N - 1 (Fisher-Yates).
template <uint32_t N> void shuffle(bench::Rng &R, uint32_t (&Order)[N]) {
  for (uint32_t K = 0; K < N; ++K)
    Order[K] = K;
  for (uint32_t K = N - 1; K > 0; --K)
    std::swap(Order[K], Order[R.below(K + 1)]);
}

// A random order of the 9 rows (or columns) that keeps bands (stacks)
// together: the bands' order, then each band's rows' order.
inline void shuffleLines(bench::Rng &R, uint32_t (&Lines)[9]) {
  uint32_t Bands[3];
  shuffle(R, Bands);
  for (uint32_t B = 0; B < 3; ++B) {
    uint32_t Within[3];
    shuffle(R, Within);
    for (uint32_t K = 0; K < 3; ++K)
      Lines[3 * B + K] = 3 * Bands[B] + Within[K];
  }
}

inline void generatePuzzle(uint64_t Seed, uint32_t I, uint32_t *Rows) {
  bench::Rng R = bench::itemRng(Seed, I);
  uint32_t Digits[9], RowOrder[9], ColumnOrder[9], Cells[sudoku::Cells];
  shuffle(R, Digits);
  shuffleLines(R, RowOrder);
  shuffleLines(R, ColumnOrder);
  const bool Transposed = R.below(2) != 0;
  const uint32_t Givens = MinGivens + R.below(MaxGivens - MinGivens + 1);
  // The givens are the first Givens cells of a random order.
  for (uint32_t K = 0; K < sudoku::Cells; ++K)
    Cells[K] = K;
  for (uint32_t K = 0; K < Givens; ++K)
    std::swap(Cells[K], Cells[K + R.below(sudoku::Cells - K)]);
  for (uint32_t Row = 0; Row < 9; ++Row)
    Rows[Row] = 0;
  for (uint32_t K = 0; K < Givens; ++K) {
    const uint32_t Row = Cells[K] / 9, Column = Cells[K] % 9;
    const uint32_t Rp = RowOrder[Transposed ? Column : Row];
    const uint32_t Cp = ColumnOrder[Transposed ? Row : Column];
    const uint32_t Pattern = (3 * (Rp % 3) + Rp / 3 + Cp) % 9;
    Rows[Row] += (Digits[Pattern] + 1) * placeValue(Column);
  }
}

} // namespace detail

inline Batch generateBatch(uint32_t N, uint64_t Seed) {
  Batch B;
  B.Rows.resize(9 * size_t(N));
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      detail::generatePuzzle(Seed, uint32_t(I), B.Rows.data() + 9 * I);
  });
  return B;
}

} // namespace sudoku
