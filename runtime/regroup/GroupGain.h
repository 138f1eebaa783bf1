// Seed 002 eqs. (6)-(10): what merging two thread groups gains. A group is
// seen through its per-block range: Min[b] and Max[b], the smallest and
// largest count of block b among its threads. Executions the two groups can
// share are the benefit (8); executions where one waits for the other, the
// cost (9); gain = benefit - cost (10) = sum lat[b] (2 Min[b] - Max[b]) over
// the union's range.
#pragma once
#include <algorithm>
#include <cstdint>

namespace divopt {

struct GroupRange {
  const uint32_t *Min;
  const uint32_t *Max;
};

// A single thread: its BBV is both ends of its range.
inline GroupRange threadRange(const uint32_t *Bbv) { return {Bbv, Bbv}; }

inline double mergeBenefit(GroupRange A, GroupRange B, const double *Lat, uint32_t Blocks) {
  double Sum = 0;
  for (uint32_t Bb = 0; Bb < Blocks; ++Bb)
    Sum += Lat[Bb] * double(std::min(A.Min[Bb], B.Min[Bb]));
  return Sum;
}

inline double mergeCost(GroupRange A, GroupRange B, const double *Lat, uint32_t Blocks) {
  double Sum = 0;
  for (uint32_t Bb = 0; Bb < Blocks; ++Bb)
    Sum += Lat[Bb] * (double(std::max(A.Max[Bb], B.Max[Bb])) -
                      double(std::min(A.Min[Bb], B.Min[Bb])));
  return Sum;
}

// Benefit - cost in one pass; every algorithm and reference uses this one,
// so that they round alike. Four partial sums, so that the additions do not
// wait on each other: the searches spend most of their time here.
inline double mergeGain(GroupRange A, GroupRange B, const double *Lat, uint32_t Blocks) {
  auto Term = [&](uint32_t Bb) {
    return Lat[Bb] * (2.0 * double(std::min(A.Min[Bb], B.Min[Bb])) -
                      double(std::max(A.Max[Bb], B.Max[Bb])));
  };
  double S0 = 0, S1 = 0, S2 = 0, S3 = 0;
  uint32_t Bb = 0;
  for (; Bb + 4 <= Blocks; Bb += 4) {
    S0 += Term(Bb);
    S1 += Term(Bb + 1);
    S2 += Term(Bb + 2);
    S3 += Term(Bb + 3);
  }
  for (; Bb < Blocks; ++Bb)
    S0 += Term(Bb);
  return (S0 + S1) + (S2 + S3);
}

} // namespace divopt
