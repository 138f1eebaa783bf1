// The per-thread work of the Needleman-Wunsch kernel: the global alignment
// score (linear gaps) of one pair. Both loops' trip counts are the pair's
// lengths, so the work is their product and differs between threads; the DP
// row over the second sequence lives in a per-thread local array.
#pragma once

#include "NwInput.h"

#include <cstdint>

namespace nw {

#if defined(__CUDACC__)
#define NW_HD __host__ __device__
#else
#define NW_HD
#endif

NW_HD inline int maxInt(int A, int B) { return A > B ? A : B; }

// LenA, LenB <= MaxLength.
NW_HD inline int alignPair(const uint8_t *A, uint32_t LenA, const uint8_t *B,
                           uint32_t LenB) {
  int H[MaxLength + 1]; // H[k]: score of A[0, i) against B[0, k)
  for (uint32_t K = 0; K <= LenB; ++K)
    H[K] = -Gap * static_cast<int>(K);
  for (uint32_t I = 1; I <= LenA; ++I) {
    uint8_t Base = A[I - 1];
    int Diag = H[0];
    H[0] = -Gap * static_cast<int>(I);
    for (uint32_t K = 1; K <= LenB; ++K) {
      int Up = H[K];
      int Sub = Diag + (Base == B[K - 1] ? Match : Mismatch);
      int Hk = maxInt(Sub, maxInt(Up, H[K - 1]) - Gap);
      Diag = Up;
      H[K] = Hk;
    }
  }
  return H[LenB];
}

} // namespace nw
