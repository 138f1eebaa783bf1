// CPU reference for the sudoku app: the same search written another way. The
// grid is a 9 x 9 array of digits (no list of empty cells), the digits each
// row, column and box holds are kept as bit d for digit d, a cell's
// candidates are counted digit by digit, the cell to fill is found by going
// over the whole grid in cell order with the kernel's rule (the first empty
// cell with at most one candidate, else the first with the fewest), and the
// search recurses, undoing a digit when its subtree fails. Both place the
// same digits in the same order and stop at the same placement, so grids
// (a capped search's as it stood), node counts and statuses must be equal.
// The two share only the constants and placeValue.
//
// gridProblem() judges a solved grid on its own: every row, column and box
// holds each digit once, and the givens are where the puzzle put them.
#pragma once

#include "../common/ParallelFor.h"
#include "SudokuPuzzles.h"
#include "SudokuSolve.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sudoku {

namespace reference {

struct Search {
  uint8_t Grid[9][9] = {};
  // The digits each row, column and box already holds (bit d for digit d).
  uint16_t InRow[9] = {}, InColumn[9] = {}, InBox[9] = {};
  uint32_t Nodes = 0;
  bool Capped = false;

  void flip(uint32_t R, uint32_t C, uint8_t Digit) {
    InRow[R] ^= uint16_t(1u << Digit);
    InColumn[C] ^= uint16_t(1u << Digit);
    InBox[R / 3 * 3 + C / 3] ^= uint16_t(1u << Digit);
  }
  uint32_t taken(uint32_t R, uint32_t C) const {
    return InRow[R] | InColumn[C] | InBox[R / 3 * 3 + C / 3];
  }

  // The empty cell to fill next (Cells if none): the first with at most one
  // candidate, else the first with the fewest.
  uint32_t choose() const {
    uint32_t Best = Cells, Fewest = 10;
    for (uint32_t R = 0; R < 9 && Fewest > 1; ++R)
      for (uint32_t C = 0; C < 9 && Fewest > 1; ++C) {
        if (Grid[R][C] != 0)
          continue;
        // Counting stops where the cell can no longer be the fewest.
        const uint32_t Taken = taken(R, C);
        uint32_t Count = 0;
        for (uint32_t Digit = 1; Digit <= 9 && Count < Fewest; ++Digit)
          Count += (Taken >> Digit & 1) == 0;
        if (Count < Fewest) {
          Best = 9 * R + C;
          Fewest = Count;
        }
      }
    return Best;
  }

  // Fills the empty cells; false if this grid has no completion, or the cap
  // was reached (Capped), in which case the grid stays as it was then.
  bool fill() {
    const uint32_t Cell = choose();
    if (Cell == Cells)
      return true;
    const uint32_t R = Cell / 9, C = Cell % 9;
    const uint32_t Taken = taken(R, C);
    for (uint8_t Digit = 1; Digit <= 9; ++Digit) {
      if (Taken >> Digit & 1)
        continue;
      if (Nodes == NodeCap) {
        Capped = true;
        return false;
      }
      Grid[R][C] = Digit;
      flip(R, C, Digit);
      ++Nodes;
      if (fill())
        return true;
      if (Capped)
        return false;
      Grid[R][C] = 0;
      flip(R, C, Digit);
    }
    return false;
  }
};

inline Solution solve(const uint32_t *Givens) {
  Search S;
  for (uint32_t R = 0; R < 9; ++R)
    for (uint32_t C = 0; C < 9; ++C)
      if (const uint32_t Digit = Givens[R] / placeValue(C) % 10; Digit != 0) {
        S.Grid[R][C] = uint8_t(Digit);
        S.flip(R, C, uint8_t(Digit));
      }
  const bool Filled = S.fill();
  Solution Out;
  for (uint32_t R = 0; R < 9; ++R) {
    Out.Rows[R] = 0;
    for (uint32_t C = 0; C < 9; ++C)
      Out.Rows[R] = 10 * Out.Rows[R] + S.Grid[R][C];
  }
  Out.Nodes = S.Nodes;
  Out.Status = Filled ? Solved : S.Capped ? Capped : NoSolution;
  return Out;
}

} // namespace reference

inline std::vector<Solution> referenceSolutions(const Batch &B) {
  std::vector<Solution> Out(B.puzzles());
  bench::parallelFor(B.puzzles(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      Out[I] = reference::solve(B.puzzle(uint32_t(I)));
  });
  return Out;
}

// Empty if Rows is a solution of the puzzle Givens, else what is wrong.
inline std::string gridProblem(const uint32_t *Givens, const uint32_t *Rows) {
  uint32_t RowSeen[9] = {}, ColumnSeen[9] = {}, BoxSeen[9] = {};
  for (uint32_t R = 0; R < 9; ++R)
    for (uint32_t C = 0; C < 9; ++C) {
      const uint32_t Digit = Rows[R] / placeValue(C) % 10;
      const uint32_t Given = Givens[R] / placeValue(C) % 10;
      const uint32_t Bit = 1u << Digit, B = R / 3 * 3 + C / 3;
      const auto Where = [&] { return "row " + std::to_string(R) + ", column " + std::to_string(C); };
      if (Digit == 0)
        return Where() + " is empty";
      if (Given != 0 && Given != Digit)
        return Where() + " holds " + std::to_string(Digit) + ", the puzzle gives " +
               std::to_string(Given);
      if ((RowSeen[R] | ColumnSeen[C] | BoxSeen[B]) & Bit)
        return Where() + " repeats " + std::to_string(Digit);
      RowSeen[R] |= Bit;
      ColumnSeen[C] |= Bit;
      BoxSeen[B] |= Bit;
    }
  return "";
}

} // namespace sudoku
