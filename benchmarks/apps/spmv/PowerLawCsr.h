// A sparse pattern with power-law row lengths, in CSR form: spmv's matrix
// and bfs's graph (a row is a vertex, its entries its out-edges).
//
// Row lengths are Pareto with exponent 2, P(length >= x) = (Min / x)^2 for
// x >= Min, truncated at Max: the degree law P(d) ~ d^-3 of preferential
// attachment. They are drawn as floor(Min / sqrt(u)), so only correctly
// rounded arithmetic decides them. Each entry's column is the row owning a
// uniformly drawn entry slot, i.e. a row drawn with probability proportional
// to its length (Chung-Lu), so column counts (in-degrees) follow the same law
// and the long rows are also the popular columns. Columns are sorted within
// a row; repeats are kept (a multigraph; in a matrix, entries that add up).
//
// Every number is a hash of (seed, stream, index), so the pattern is the
// same bit for bit whatever the number of host threads that build it.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/ParallelFor.h"

namespace powerlaw {

// The splitmix64 finalizer: a bijection of 64-bit words that mixes well.
inline uint64_t mix64(uint64_t X) {
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ull;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebull;
  return X ^ (X >> 31);
}

inline uint64_t hash64(uint64_t Seed, uint64_t Stream, uint64_t Index) {
  return mix64(mix64(Seed * 0x9e3779b97f4a7c15ull + Stream) + Index);
}

// A uniform double in (0, 1].
inline double unitInterval(uint64_t Hash) { return double((Hash >> 11) + 1) * 0x1p-53; }

struct Csr {
  std::vector<uint32_t> RowStart; // Rows + 1 offsets into Column
  std::vector<uint32_t> Column;
  uint32_t rows() const { return uint32_t(RowStart.size() - 1); }
  uint32_t length(uint32_t Row) const { return RowStart[Row + 1] - RowStart[Row]; }
};

// Square (Rows x Rows). Exits 2 if the entries would not fit 32-bit offsets.
inline Csr generate(uint32_t Rows, uint64_t Seed, uint32_t MinLength, uint32_t MaxLength) {
  Csr M;
  M.RowStart.assign(uint64_t(Rows) + 1, 0);
  bench::parallelFor(Rows, [&](size_t Begin, size_t End) {
    for (size_t R = Begin; R < End; ++R) {
      double Length = MinLength / std::sqrt(unitInterval(hash64(Seed, 0, R)));
      M.RowStart[R + 1] = Length >= MaxLength ? MaxLength : uint32_t(Length);
    }
  });
  uint64_t Entries = 0;
  for (uint64_t R = 0; R < Rows; ++R) {
    Entries += M.RowStart[R + 1];
    if (Entries > UINT32_MAX) {
      std::fprintf(stderr, "power-law pattern: %u rows have over 2^32 entries\n", Rows);
      std::exit(2);
    }
    M.RowStart[R + 1] = uint32_t(Entries);
  }
  // Owner[S]: the row that entry slot S belongs to; a column is the owner of
  // a uniformly drawn slot.
  std::vector<uint32_t> Owner(Entries);
  bench::parallelFor(Rows, [&](size_t Begin, size_t End) {
    for (size_t R = Begin; R < End; ++R)
      std::fill(Owner.begin() + M.RowStart[R], Owner.begin() + M.RowStart[R + 1], uint32_t(R));
  });
  M.Column.resize(Entries);
  bench::parallelFor(Rows, [&](size_t Begin, size_t End) {
    for (size_t R = Begin; R < End; ++R) {
      for (uint32_t E = M.RowStart[R]; E < M.RowStart[R + 1]; ++E)
        M.Column[E] = Owner[hash64(Seed, 1, E) % Entries];
      std::sort(M.Column.begin() + M.RowStart[R], M.Column.begin() + M.RowStart[R + 1]);
    }
  });
  return M;
}

} // namespace powerlaw
