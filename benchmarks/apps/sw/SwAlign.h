// The per-thread work of the Smith-Waterman kernel: the best local alignment
// score (Gotoh, affine gaps) of the query against one database sequence. The
// outer loop walks the database sequence, so its trip count (the sequence
// length) is what differs between threads; the DP row over the query lives in
// per-thread local arrays.
#pragma once

#include "SwInput.h"

#include <cstdint>

namespace sw {

#if defined(__CUDACC__)
#define SW_HD __host__ __device__
#else
#define SW_HD
#endif

SW_HD inline int maxInt(int A, int B) { return A > B ? A : B; }

// Profile: the query profile of SwInput.h; QueryLen <= QueryLength.
SW_HD inline int alignOne(const uint8_t *Seq, uint32_t Len, const int *Profile,
                          uint32_t QueryLen) {
  // H[i]: score ending at query residue i and the previous database residue;
  // E[i]: the same, ending in a gap in the query. Gap scores start at 0
  // instead of minus infinity: a negative gap score never wins against the
  // local alignment's 0, and only ever decreases, so the result is the same.
  int H[QueryLength], E[QueryLength];
  for (uint32_t I = 0; I < QueryLen; ++I) {
    H[I] = 0;
    E[I] = 0;
  }
  int Best = 0;
  for (uint32_t J = 0; J < Len; ++J) {
    const int *Row = Profile + Seq[J] * QueryLength;
    int Diag = 0; // H of (i-1, j-1)
    int Up = 0;   // H of (i-1, j)
    int F = 0;    // gap in the database, ending at (i-1, j)
    for (uint32_t I = 0; I < QueryLen; ++I) {
      int Ei = maxInt(H[I] - GapOpen, E[I] - GapExtend);
      F = maxInt(Up - GapOpen, F - GapExtend);
      int Hi = maxInt(maxInt(0, Diag + Row[I]), maxInt(Ei, F));
      Diag = H[I];
      H[I] = Hi;
      E[I] = Ei;
      Up = Hi;
      Best = maxInt(Best, Hi);
    }
  }
  return Best;
}

} // namespace sw
