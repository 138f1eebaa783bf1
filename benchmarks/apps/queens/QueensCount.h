// The per-prefix work of the queens app, shared by its kernels: counting the
// ways to complete a placement of queens on the first PrefixRows rows of a
// BoardSize x BoardSize board, by the classic bitmask backtracking. A row's
// state is three masks of the columns a queen there would be attacked on:
// by a queen above in the same column, or along a diagonal going down-left
// or down-right; the free columns are the complement of their union, and
// they are tried lowest first (Free & -Free). Instead of recursion an
// explicit stack in a local array holds, for each row above the current one,
// the mask of its columns still to try. Threads diverge on the size of the
// prefix's subtree: a prefix whose diagonals soon leave a row no free column
// is done in a few steps, an open one takes thousands (11 to 14,030 steps of
// the loop over all prefixes).
#pragma once

#include <cstdint>

namespace queens {

#if defined(__CUDACC__)
#define QUEENS_HD __host__ __device__
#else
#define QUEENS_HD
#endif

constexpr uint32_t BoardSize = 16;
constexpr uint32_t PrefixRows = 6; // placed by the host
constexpr uint32_t RowsLeft = BoardSize - PrefixRows;
constexpr uint32_t AllColumns = (1u << BoardSize) - 1;
// countCompletions keeps diagonals that left the board in its masks (up to
// RowsLeft bits beyond either side).
static_assert(BoardSize + RowsLeft <= 32, "the search's masks must fit 32 bits");

// A row's attacked columns (bit c: column c): by a queen above in the same
// column, along a diagonal by a queen above in a lower column (a queen's Left
// bit moves one column up with every row below it), along one by a queen in a
// higher column (its Right bit moves one column down).
struct Prefix {
  uint32_t Cols, Left, Right;
};

QUEENS_HD inline uint32_t freeColumns(const Prefix &Row) {
  return ~(Row.Cols | Row.Left | Row.Right) & AllColumns;
}

// The next row's masks once a queen stands on column Bit (a single bit) of
// this one.
QUEENS_HD inline Prefix place(const Prefix &Row, uint32_t Bit) {
  return {Row.Cols | Bit, ((Row.Left | Bit) << 1) & AllColumns, (Row.Right | Bit) >> 1};
}

QUEENS_HD inline uint32_t popCount(uint32_t X) {
#if defined(__CUDA_ARCH__)
  return __popc(X);
#else
  return __builtin_popcount(X);
#endif
}

// The number of ways to fill the RowsLeft rows below a prefix. Always inlined:
// each kernel then holds the search loop itself, where divopt's profile
// counts it, as the other apps' kernels hold their work.
QUEENS_HD inline __attribute__((always_inline)) uint64_t countCompletions(const Prefix &Start) {
  // The current row's masks. Diagonals that leave the board are kept rather
  // than cut off, so that taking a queen off shifts a mask back exactly:
  // Left grows past bit BoardSize, and Right is held RowsLeft bits up (the
  // free columns are read from Right >> RowsLeft).
  uint32_t Cols = Start.Cols, Left = Start.Left, Right = Start.Right << RowsLeft;
  uint32_t ToTry = ~(Cols | Left | Right >> RowsLeft) & AllColumns;
  // For each row above the current one, the columns it had still to try when
  // its queen was placed, that queen's included: columns go lowest first, so
  // the queen is the lowest bit and the rest are still to try. Only this is
  // stored: the row's masks are the current ones with the queen taken off.
  // 16 bits a row keep the stack small (18 bytes a thread): with 32-bit
  // entries the default launch took 21% longer on an H200.
  uint16_t Stack[RowsLeft - 1];
  uint32_t Depth = 0; // the current row, 0 to RowsLeft - 1: rows above it are on the stack
  uint64_t Completions = 0;
  for (;;) {
    if (ToTry == 0) {
      if (Depth == 0)
        break;
      // Back to the row above: its queen was free there, so it is in none of
      // that row's masks and XOR takes it off.
      const uint32_t Tried = Stack[--Depth];
      const uint32_t Bit = Tried & (0u - Tried);
      ToTry = Tried ^ Bit;
      Cols ^= Bit;
      Left = (Left >> 1) ^ Bit;
      Right = (Right << 1) ^ (Bit << RowsLeft);
      continue;
    }
    const uint32_t Bit = ToTry & (0u - ToTry);
    if (Depth == RowsLeft - 1) {
      ToTry ^= Bit;
      ++Completions; // a queen on the last row: the board is full
      continue;
    }
    Stack[Depth++] = uint16_t(ToTry);
    Cols |= Bit;
    Left = (Left | Bit) << 1;
    Right = (Right | Bit << RowsLeft) >> 1;
    ToTry = ~(Cols | Left | Right >> RowsLeft) & AllColumns;
  }
  return Completions;
}

// The hand-written variant's key: the product over the rows left of the
// columns each leaves free, seen from the prefix (a queen's diagonals reach
// the row j below the next one j columns further). It bounds the leaves of a
// search that ignored the queens still to come, so it is small for a prefix
// that nearly blocks a row and largest for an open one. At most 424,673,280
// over all prefixes; the bound 10^10 (10 rows of at most 10 free columns)
// would saturate.
QUEENS_HD inline uint32_t subtreeEstimate(const Prefix &P) {
  uint64_t Product = 1;
  for (uint32_t J = 0; J < RowsLeft; ++J)
    Product *= popCount(~(P.Cols | (P.Left << J) | (P.Right >> J)) & AllColumns);
  return Product < UINT32_MAX ? uint32_t(Product) : UINT32_MAX;
}

} // namespace queens
