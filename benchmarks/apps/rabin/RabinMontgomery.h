// Montgomery arithmetic modulo an odd 64-bit integer N, for the rabin app's
// Miller-Rabin test on the GPU and on the host. A residue x is held as
// x R mod N with R = 2^64, and the product of two such residues is reduced by
// Montgomery's REDC, which needs only 64-bit multiplications (low and high
// halves): the GPU has no 128-by-64-bit division, and a remainder by N per
// product would cost far more than the product. The high half is
// __umul64hi on the device and an unsigned __int128 product on the host;
// both are the exact integer, so the two sides compute the same residues.
#pragma once

#include "../common/WordBits.h"

#include <cstdint>

namespace rabin {

using bench::bits::leadingZeros;
using bench::bits::productHigh;
using bench::bits::trailingZeros;

#if defined(__CUDACC__)
#define RABIN_HD __host__ __device__
#else
#define RABIN_HD
#endif

class Montgomery {
public:
  // N odd and at least 3.
  RABIN_HD explicit Montgomery(uint64_t Modulus) : N(Modulus) {
    // Newton's iteration for N^-1 mod 2^64 doubles the correct low bits; N
    // is its own inverse mod 8 (3 bits), so five steps give 96 >= 64.
    NInverse = N;
    for (int Step = 0; Step < 5; ++Step)
      NInverse *= 2 - N * NInverse;
    // 2^64 mod N, which is 2^64 - N reduced.
    One = (0 - N) % N;
    MinusOne = N - One;
    // R^2 mod N, to bring integers in: 2 R mod N is One doubled, and six
    // Montgomery squarings take the residue of 2 to that of 2^64 = R.
    uint64_t Square = One >= N - One ? One - (N - One) : One + One;
    for (int Step = 0; Step < 6; ++Step)
      Square = multiply(Square, Square);
    RSquared = Square;
  }

  // A B R^-1 mod N, for A, B < N. M is chosen so that M N and A B agree in
  // their low 64 bits, so (A B - M N) / 2^64 is the difference of the high
  // halves, which lies in (-N, N): one conditional addition of N brings it
  // into [0, N) without a 129-bit intermediate.
  RABIN_HD uint64_t multiply(uint64_t A, uint64_t B) const {
    const uint64_t Low = A * B, High = productHigh(A, B);
    const uint64_t M = Low * NInverse;
    const uint64_t MnHigh = productHigh(M, N);
    return High >= MnHigh ? High - MnHigh : High - MnHigh + N;
  }

  // The residue of X < N.
  RABIN_HD uint64_t residue(uint64_t X) const { return multiply(X, RSquared); }

  uint64_t N;
  uint64_t NInverse; // N^-1 mod 2^64
  uint64_t One;      // the residue of 1: R mod N
  uint64_t MinusOne; // the residue of N - 1
  uint64_t RSquared; // R^2 mod N
};

} // namespace rabin
