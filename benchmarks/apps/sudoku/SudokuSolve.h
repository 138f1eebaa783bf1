// The per-puzzle work of the sudoku app, shared by its kernels: depth-first
// backtracking on one 9x9 puzzle until the first solution.
//
// A grid is 9 rows, each the 9-digit decimal number its digits spell (10^9 <
// 2^32), 0 for an empty cell. Cell k is row k / 9, column k % 9. The state of
// the search is the digits each row, column and box already holds, 9-bit
// masks (bit d - 1 for digit d), and the cells still open; a cell's
// candidates are the digits in none of its three masks. All of it lives in
// registers, three 27-bit words of three 9-bit fields for each kind (Fields
// below): a band's rows, a stack's columns, a band's boxes, a band's open
// cells (bit 9 (row mod 3) + column), so that the scan for the next cell, the
// inner loop, makes no memory access. Each step picks a cell by the minimum
// remaining values rule: the first open cell, in cell order, with at most
// one candidate, else the first with the fewest; with none left it
// backtracks, else it places the cell's lowest candidate. Instead of
// recursion an explicit stack in a local array holds, for each cell filled
// so far, the cell and the candidates it had still to try, the digit placed
// included: digits go lowest first, so the placed one is the lowest bit and
// the rest are still to try.
//
// A node is one placement. A puzzle whose cells are forced one after another
// takes as many nodes as it has empty cells; one that needs a guess whose
// mistake shows only many cells later takes hundreds or more. That is where
// threads diverge. A search stops at NodeCap placements, so a pathological
// puzzle cannot run forever; the generator's puzzles always have a solution
// (they are cut out of a solved grid), but not necessarily one alone: the
// search reports the first it finds.
#pragma once

#include <cstdint>

namespace sudoku {

#if defined(__CUDACC__)
#define SUDOKU_HD __host__ __device__
#else
#define SUDOKU_HD
#endif

constexpr uint32_t Cells = 81;
constexpr uint32_t AllDigits = 0x1ff;
// Beyond this many placements a search gives up, as batch solvers bound the
// effort per query and hand the rest to a complete solver (or a generator
// discards the candidate). Without a bound a few puzzles in a million take
// 10^5 to 10^6 nodes, and one thread alone would run for a second; with 2^9
// about 2% of the generator's puzzles are capped, and the longest search
// (some 20,000 cells examined) stays below a launch's time.
constexpr uint32_t NodeCap = 1u << 9;

enum Status : uint32_t { Solved = 0, Capped = 1, NoSolution = 2 };

// What a thread writes.
struct Solution {
  uint32_t Rows[9]; // the grid as the search left it: solved unless capped
  uint32_t Nodes;   // placements, at most NodeCap
  uint32_t Status;
};

SUDOKU_HD inline uint32_t popCount(uint32_t X) {
#if defined(__CUDA_ARCH__)
  return __popc(X);
#else
  return __builtin_popcount(X);
#endif
}

// The number of the lowest set bit of X != 0.
SUDOKU_HD inline uint32_t lowestBit(uint32_t X) {
#if defined(__CUDA_ARCH__)
  return __ffs(X) - 1;
#else
  return __builtin_ctz(X);
#endif
}

// 10^(8 - Column): the place value of a column in its row's number.
SUDOKU_HD inline uint32_t placeValue(uint32_t Column) {
  uint32_t Value = 1;
  for (uint32_t K = Column; K < 8; ++K)
    Value *= 10;
  return Value;
}

// Nine 9-bit fields in three words, word I's field J at bit 9 J. Words are
// chosen by selects, not by an index into an array, which would put them in
// local memory.
struct Fields {
  uint32_t W0 = 0, W1 = 0, W2 = 0;

  SUDOKU_HD uint32_t word(uint32_t I) const { return I == 0 ? W0 : I == 1 ? W1 : W2; }
  SUDOKU_HD uint32_t field(uint32_t I, uint32_t J) const { return word(I) >> 9 * J & AllDigits; }
  SUDOKU_HD void flip(uint32_t I, uint32_t Bits) {
    W0 ^= I == 0 ? Bits : 0;
    W1 ^= I == 1 ? Bits : 0;
    W2 ^= I == 2 ? Bits : 0;
  }
};

struct Board {
  Fields Rows, Columns, Boxes, Open;

  // Digit bit Bit into cell Cell's row, column and box, closing the cell, or
  // back out, opening it (the digit must be free in all three to go in, and
  // in them all to go out).
  SUDOKU_HD void flip(uint32_t Cell, uint32_t Bit) {
    const uint32_t R = Cell / 9, C = Cell % 9;
    Rows.flip(R / 3, Bit << 9 * (R % 3));
    Columns.flip(C / 3, Bit << 9 * (C % 3));
    Boxes.flip(R / 3, Bit << 9 * (C / 3));
    Open.flip(R / 3, 1u << (Cell - 27 * (R / 3)));
  }
};

// Solves the puzzle Givens (9 rows) into S. Always inlined: each kernel then
// holds the search loop itself, where divopt's profile counts it, as the
// other apps' kernels hold their work.
SUDOKU_HD inline __attribute__((always_inline)) void solve(const uint32_t *Givens, Solution &S) {
  // Every cell open, then the givens placed (a puzzle's givens must not
  // repeat a digit in a row, column or box; the generator's never do).
  Board Bd;
  Bd.Open = {(1u << 27) - 1, (1u << 27) - 1, (1u << 27) - 1};
  for (uint32_t R = 0; R < 9; ++R) {
    uint32_t Number = Givens[R];
    S.Rows[R] = Number;
    for (uint32_t C = 9; C-- > 0; Number /= 10)
      if (const uint32_t Digit = Number % 10; Digit != 0)
        Bd.flip(9 * R + C, 1u << (Digit - 1));
  }

  uint16_t Stack[Cells];
  uint32_t Depth = 0, Nodes = 0, Result;
  for (;;) {
    if ((Bd.Open.W0 | Bd.Open.W1 | Bd.Open.W2) == 0) {
      Result = Solved;
      break;
    }
    // The cell to fill and its candidates (none: a dead end). A band's open
    // cells come lowest bit first, which is cell order.
    uint32_t Pick = 0, Candidates = 0, Fewest = 10;
    for (uint32_t Band = 0; Band < 3 && Fewest > 1; ++Band) {
      const uint32_t RowWord = Bd.Rows.word(Band), BoxWord = Bd.Boxes.word(Band);
      for (uint32_t Left = Bd.Open.word(Band); Left != 0; Left &= Left - 1) {
        const uint32_t P = lowestBit(Left), R = P / 9, C = P % 9;
        const uint32_t Free = ~(RowWord >> 9 * R | Bd.Columns.field(C / 3, C % 3) |
                                BoxWord >> 9 * (C / 3)) &
                              AllDigits;
        const uint32_t Count = popCount(Free);
        if (Count < Fewest) {
          Pick = 27 * Band + P;
          Candidates = Free;
          Fewest = Count;
          if (Count <= 1)
            break;
        }
      }
    }
    // Back to the latest cell with a candidate still to try, taking off the
    // digits placed since.
    while (Candidates == 0 && Depth != 0) {
      const uint32_t Entry = Stack[--Depth];
      const uint32_t Tried = Entry >> 7, Bit = Tried & (0u - Tried);
      Pick = Entry & 127;
      Bd.flip(Pick, Bit);
      Candidates = Tried ^ Bit;
    }
    if (Candidates == 0) {
      Result = NoSolution;
      break;
    }
    if (Nodes == NodeCap) {
      Result = Capped;
      break;
    }
    Bd.flip(Pick, Candidates & (0u - Candidates));
    Stack[Depth++] = uint16_t(Pick | Candidates << 7);
    ++Nodes;
  }

  // The placed digits into the grid: each stack entry's lowest bit.
  for (uint32_t D = 0; D < Depth; ++D) {
    const uint32_t Entry = Stack[D], Cell = Entry & 127;
    S.Rows[Cell / 9] += (lowestBit(Entry >> 7) + 1) * placeValue(Cell % 9);
  }
  S.Nodes = Nodes;
  S.Status = Result;
}

} // namespace sudoku
