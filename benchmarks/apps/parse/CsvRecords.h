// The input of the parse app: a CSV file of integer records, as a GPU
// dataframe reader receives it: one text buffer in which the records follow
// one another, each ended by '\n', and the offsets where they start
// (RowStart: records + 1 entries, the last one the buffer's size).
//
// Record lengths are heavy-tailed, as in log files where most lines are
// short and a few carry long lists: Pareto with exponent 1,
// P(length >= x) = MinLength / x, truncated at MaxLength (median 16 bytes,
// mean ~52, 0.4% of the records at 2000). They are drawn as
// floor(MinLength / u) for u in (0, 1], so only a correctly rounded division
// decides them, and they stay in the order drawn (a warp holds 32 unrelated
// lengths). A record's fields are empty (5%), short counts of 1 to 3 digits
// (45%), ids and sizes of 4 to 9 (35%) or timestamps and 64-bit ids of 10 to
// 18 (15%); 15% of the non-empty fields are negative. Fields are written
// until the record's length is reached, the last one cut short to fit.
//
// Lengths and one seed per record come from the seed in order; the texts are
// then written in parallel, each from its own seed (the same bytes whatever
// the number of host threads).
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace parse {

constexpr uint32_t MinLength = 8, MaxLength = 2000; // bytes, the '\n' included
constexpr uint32_t EmptyPercent = 5, ShortPercent = 45, MediumPercent = 35; // the rest long
constexpr double NegativeShare = 0.15;

struct Records {
  std::vector<uint8_t> Text;
  std::vector<uint32_t> RowStart; // records + 1 offsets into Text
  uint32_t count() const { return uint32_t(RowStart.size() - 1); }
  uint32_t length(uint32_t I) const { return RowStart[I + 1] - RowStart[I]; }
};

namespace detail {

// Writes one record of exactly Length bytes (at least 2) to Out.
inline void writeRecord(bench::Rng &Random, uint8_t *Out, uint32_t Length) {
  const uint32_t Newline = Length - 1;
  uint32_t P = 0;
  bool First = true;
  do {
    if (!First)
      Out[P++] = ',';
    First = false;
    uint32_t Room = Newline - P;
    const uint32_t Kind = Random.below(100);
    if (Kind < EmptyPercent)
      continue;
    uint32_t Digits = Kind < EmptyPercent + ShortPercent                   ? 1 + Random.below(3)
                      : Kind < EmptyPercent + ShortPercent + MediumPercent ? 4 + Random.below(6)
                                                                           : 10 + Random.below(9);
    // A sign needs a digit after it: a field cut to one byte is unsigned.
    if (Random.uniform01() < NegativeShare && Room >= 2) {
      Out[P++] = '-';
      --Room;
    }
    Digits = std::min(Digits, Room);
    // 18 decimal digits of one 64-bit draw (its 19th would be biased).
    uint64_t Source = Random.next();
    for (uint32_t D = 0; D < Digits; ++D, Source /= 10)
      Out[P++] = uint8_t('0' + Source % 10);
  } while (P < Newline);
  Out[Newline] = '\n';
}

} // namespace detail

// Exits 2 if the text would not fit 32-bit offsets.
inline Records generateRecords(uint32_t N, uint64_t Seed) {
  bench::Rng Random(Seed);
  Records R;
  R.RowStart.resize(size_t(N) + 1);
  std::vector<uint64_t> RecordSeeds(N);
  uint64_t Bytes = 0;
  for (uint32_t I = 0; I < N; ++I) {
    R.RowStart[I] = uint32_t(Bytes);
    const double Drawn = MinLength / (1.0 - Random.uniform01()); // u in (0, 1]
    Bytes += Drawn >= MaxLength ? MaxLength : uint32_t(Drawn);
    RecordSeeds[I] = Random.next();
    if (Bytes > UINT32_MAX) {
      std::fprintf(stderr, "parse: %u records hold over 2^32 bytes\n", N);
      std::exit(2);
    }
  }
  R.RowStart[N] = uint32_t(Bytes);
  R.Text.resize(Bytes);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng RecordRandom(RecordSeeds[I]);
      detail::writeRecord(RecordRandom, R.Text.data() + R.RowStart[I], R.length(uint32_t(I)));
    }
  });
  return R;
}

} // namespace parse
