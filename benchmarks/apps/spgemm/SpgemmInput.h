// The input of the spgemm app: two square N x N sparse patterns A and B in
// CSR form (columns ascending and distinct within a row), drawn alike but
// independently, as the operands of a product C = A B.
//
// Row lengths are Pareto with exponent 1.5, P(length >= x) = (2 / x)^1.5,
// truncated at MaxRowLength (the bound of the kernel's heap): most rows hold
// 2 to 8 entries, about 1 in 350 holds 100 or more. A row's columns are
// local, as in matrices from meshes, circuits or reordered graphs: row I
// holds its diagonal, and each other column is, with probability FarShare,
// uniform over all columns (a long-range link), else within Reach =
// length + LocalMargin of I (wrapping around at the ends), the nearest ones
// the likeliest; a column drawn twice is drawn again. So a row of A
// references rows of B near its own index, whose columns crowd around the
// same place: the rows of B merged into a row of C overlap, more for a long
// row of A, whose references are dense in a wide window.
//
// Lengths are i.i.d., so the long rows of A and B sit at random indices: a
// thread whose row of A is long, or references a long row of B, merges
// hundreds to thousands of entries while its warp's other lanes merge a few
// dozen.
//
// Every row has its own random stream (seed, matrix, row): the patterns are
// the same whatever the number of host threads, and rows are drawn in
// parallel.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace spgemm {

constexpr double MinRowLength = 2, LengthExponent = 1.5;
constexpr uint32_t MaxRowLength = 256;
constexpr double FarShare = 0.05;
constexpr uint32_t LocalMargin = 2;

struct Csr {
  std::vector<uint32_t> RowStart; // rows + 1 offsets into Column
  std::vector<uint32_t> Column;   // each row's columns, ascending, distinct
  uint32_t rows() const { return uint32_t(RowStart.size() - 1); }
  uint32_t length(uint32_t Row) const { return RowStart[Row + 1] - RowStart[Row]; }
};

struct Operands {
  Csr A, B;
};

namespace detail {

inline bench::Rng rowStream(uint64_t Seed, uint64_t Matrix, uint32_t Row) {
  return bench::Rng(bench::Rng(Seed ^ (uint64_t(Row) * 0xd1b54a32d192ed03ULL) ^
                               (Matrix * 0x8cb92ba72f3d8dd7ULL))
                        .next());
}

// The stream's first draw; at most N, so that the row's columns are distinct.
inline uint32_t drawLength(bench::Rng &R, uint32_t N) {
  const double Length = MinRowLength * std::pow(1.0 - R.uniform01(), -1.0 / LengthExponent);
  return std::min(N, Length >= MaxRowLength ? MaxRowLength : uint32_t(Length));
}

// A column within Reach of I, wrapping around (2 Reach + 1 < N): uniform
// within a half-width itself uniform in [1, Reach], so the nearest columns
// are the likeliest.
inline uint32_t nearColumn(bench::Rng &R, uint32_t I, uint32_t N, uint32_t Reach) {
  const uint32_t HalfWidth = 1 + R.below(Reach);
  const int64_t Column = int64_t(I) - HalfWidth + R.below(2 * HalfWidth + 1);
  return uint32_t(Column < 0 ? Column + N : Column >= N ? Column - N : Column);
}

// Row I's Length distinct columns, ascending, into Out: I, then draws; a
// draw already taken is drawn again (insertion into the sorted prefix: rows
// are short). Length >= 1.
inline void drawColumns(bench::Rng &R, uint32_t I, uint32_t N, uint32_t Length, uint32_t *Out) {
  const uint32_t Reach = Length + LocalMargin;
  // A window as wide as the matrix is no locality: every draw is uniform.
  const bool Local = 2 * uint64_t(Reach) + 1 < N;
  Out[0] = I;
  uint32_t Count = 1;
  while (Count < Length) {
    const uint32_t Column =
        !Local || R.uniform01() < FarShare
            ? R.below(N)
            : nearColumn(R, I, N, Reach);
    uint32_t *const Slot = std::lower_bound(Out, Out + Count, Column);
    if (Slot != Out + Count && *Slot == Column)
      continue;
    std::copy_backward(Slot, Out + Count, Out + Count + 1);
    *Slot = Column;
    ++Count;
  }
}

// Exits 2 if the entries would not fit 32-bit offsets.
inline Csr drawMatrix(uint32_t N, uint64_t Seed, uint64_t Matrix) {
  Csr M;
  M.RowStart.assign(uint64_t(N) + 1, 0);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng R = rowStream(Seed, Matrix, uint32_t(I));
      M.RowStart[I + 1] = drawLength(R, N);
    }
  });
  uint64_t Entries = 0;
  for (uint64_t I = 1; I <= N; ++I) {
    Entries += M.RowStart[I];
    if (Entries > UINT32_MAX) {
      std::fprintf(stderr, "spgemm: %u rows have over 2^32 entries\n", N);
      std::exit(2);
    }
    M.RowStart[I] = uint32_t(Entries);
  }
  M.Column.resize(Entries);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng R = rowStream(Seed, Matrix, uint32_t(I));
      const uint32_t Length = drawLength(R, N);
      drawColumns(R, uint32_t(I), N, Length, M.Column.data() + M.RowStart[I]);
    }
  });
  return M;
}

} // namespace detail

inline Operands generate(uint32_t N, uint64_t Seed) {
  return {detail::drawMatrix(N, Seed, 0), detail::drawMatrix(N, Seed, 1)};
}

} // namespace spgemm
