// The per-number work of the rabin app, shared by its kernels and its input
// generator: a deterministic Miller-Rabin test of an odd 64-bit integer N.
// With N - 1 = d 2^s (d odd), a base a is a strong liar when a^d = 1 or
// a^(d 2^r) = -1 (mod N) for some r < s; a prime makes every base a liar.
// Jim Sinclair's seven bases {2, 325, 9375, 28178, 450775, 9780504,
// 1795265022} leave no odd composite below 2^64 without a witness, so the
// test is exact. The bases are tried in order and the test stops at the
// first witness: a composite usually costs one exponentiation, a prime
// costs all seven, and each exponentiation is one Montgomery squaring per
// bit of d, a multiplication per set bit after the first, and up to s - 1
// squarings more (RabinMontgomery.h).
#pragma once

#include "RabinMontgomery.h"

#include <cstdint>

namespace rabin {

constexpr uint32_t BaseCount = 7;

RABIN_HD inline uint64_t witnessBase(uint32_t I) {
  switch (I) {
  case 0: return 2;
  case 1: return 325;
  case 2: return 9375;
  case 3: return 28178;
  case 4: return 450775;
  case 5: return 9780504;
  default: return 1795265022;
  }
}

// The app's output for N (odd, at least 3): 1 if N is prime, else 1 + the
// number (counted from 1) of the base that witnessed it composite, 2 to 8,
// which says how many exponentiations N took. A base that N divides is
// skipped: it reduces to 0, which proves nothing (N is then below 2^31).
//
// Always inlined: each kernel then holds the base and bit loops itself,
// where divopt's profile counts them, as the other apps' kernels hold
// their work.
RABIN_HD inline __attribute__((always_inline)) uint32_t witnessCode(uint64_t N) {
  const Montgomery M(N);
  const uint32_t Twos = trailingZeros(N - 1);
  const uint64_t Odd = (N - 1) >> Twos;
  const int TopBit = 63 - int(leadingZeros(Odd));
  for (uint32_t I = 0; I < BaseCount; ++I) {
    const uint64_t Base = witnessBase(I);
    const uint64_t Reduced = Base < N ? Base : Base % N;
    if (Reduced == 0)
      continue;
    // Left-to-right square-and-multiply from the top bit of Odd.
    const uint64_t A = M.residue(Reduced);
    uint64_t X = A;
    for (int Bit = TopBit - 1; Bit >= 0; --Bit) {
      X = M.multiply(X, X);
      if ((Odd >> Bit) & 1)
        X = M.multiply(X, A);
    }
    bool Liar = X == M.One || X == M.MinusOne;
    for (uint32_t R = 1; R < Twos && !Liar; ++R) {
      X = M.multiply(X, X);
      Liar = X == M.MinusOne;
    }
    if (!Liar)
      return I + 2;
  }
  return 1;
}

RABIN_HD inline bool isPrime(uint64_t N) { return witnessCode(N) == 1; }

// Whether N has an odd prime factor below 64 (N > 61). Three 64-bit
// remainders by products of those primes leave a 32-bit remainder for each.
RABIN_HD inline bool hasSmallFactor(uint64_t N) {
  const uint32_t A = uint32_t(N % (3u * 5 * 7 * 11 * 13 * 17 * 19 * 23));
  const uint32_t B = uint32_t(N % (29u * 31 * 37 * 41 * 43));
  const uint32_t C = uint32_t(N % (47u * 53 * 59 * 61));
  return !(A % 3 && A % 5 && A % 7 && A % 11 && A % 13 && A % 17 && A % 19 && A % 23 &&
           B % 29 && B % 31 && B % 37 && B % 41 && B % 43 && C % 47 && C % 53 && C % 59 &&
           C % 61);
}

// The hand-written variant's key: the bit length of N times 7 if N has no
// small factor (it may be prime, and a prime takes all seven
// exponentiations), else 1 (base 2 will witness it). Composites without a
// small factor (semiprimes, pseudoprimes, a quarter of random odd
// composites) are ranked with the primes of their size.
RABIN_HD inline uint32_t estimatedWork(uint64_t N) {
  return (64 - leadingZeros(N)) * (hasSmallFactor(N) ? 1 : BaseCount);
}

} // namespace rabin
