// The input of the rho app: composites n = p q < 2^62 of two primes p < q, as
// a sieve's cofactorization step hands them over once the small factors are
// divided out. The smaller prime p, whose size sets the rho walk's length
// (about sqrt(p) steps), is drawn log-uniformly by octaves: its bit length
// uniform over 11 to 24 (2^10 <= p < 2^24), then the first prime from a
// uniform point of that octave. q's bit length is uniform over p's to
// 62 - p's, and q is the first prime from a uniform point of its octave
// above p, so n < 2^62 and its size says little about p's beyond
// p <= sqrt(n). Sizes are mixed at random, so nearly every warp holds a few
// p near 2^24 (walks of thousands of steps) among walks of tens.
//
// Primality is Miller-Rabin on the app's own Montgomery arithmetic with the
// first nine prime bases, exact below 3.8 x 10^18 (q < 2^51). Every number
// has its own generator, seeded from Seed in order, and the numbers are then
// drawn in parallel: the same input whatever the number of host threads.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "RhoArithmetic.h"

#include <cstdint>
#include <vector>

namespace rho {

constexpr uint32_t MinFactorBits = 11, MaxFactorBits = 24, MaxProductBits = 62;

// Miller-Rabin with bases 2 to 23 (Jaeschke: exact for odd N below
// 3,825,123,056,546,413,051), after trial division by the bases.
inline bool isPrime(uint64_t N) {
  const uint64_t Bases[] = {2, 3, 5, 7, 11, 13, 17, 19, 23};
  for (uint64_t B : Bases)
    if (N % B == 0)
      return N == B;
  if (N < 2)
    return false;
  const Modulus M = modulusOf(N);
  // Montgomery residues: x 2^64 mod N; One is 2^64 mod N, Square 2^128 mod N.
  const uint64_t One = (0 - N) % N;
  const uint64_t Square = uint64_t((unsigned __int128)One * One % N);
  const uint64_t MinusOne = N - One;
  uint64_t Odd = N - 1;
  const uint32_t Twos = trailingZeros(Odd);
  Odd >>= Twos;
  for (uint64_t B : Bases) {
    const uint64_t Base = montgomeryProduct(M, B, Square);
    uint64_t Power = One;
    for (int Bit = 63 - __builtin_clzll(Odd); Bit >= 0; --Bit) {
      Power = montgomeryProduct(M, Power, Power);
      if ((Odd >> Bit) & 1)
        Power = montgomeryProduct(M, Power, Base);
    }
    if (Power == One || Power == MinusOne)
      continue;
    bool Witness = true;
    for (uint32_t I = 1; I < Twos && Witness; ++I) {
      Power = montgomeryProduct(M, Power, Power);
      Witness = Power != MinusOne;
    }
    if (Witness)
      return false;
  }
  return true;
}

// The first prime >= a uniform point of [Low, High), or 0 if that prime is
// not below High.
inline uint64_t primeFrom(bench::Rng &Random, uint64_t Low, uint64_t High) {
  for (uint64_t X = Low + Random.next() % (High - Low); X < High; ++X)
    if (isPrime(X))
      return X;
  return 0;
}

struct Cofactors {
  std::vector<uint64_t> N;     // the composites the kernel splits
  std::vector<uint64_t> Small; // p, for the check
};

inline Cofactors generateCofactors(uint32_t Count, uint64_t Seed) {
  bench::Rng Seeds(Seed);
  std::vector<uint64_t> NumberSeeds(Count);
  for (uint64_t &S : NumberSeeds)
    S = Seeds.next();
  Cofactors Out{std::vector<uint64_t>(Count), std::vector<uint64_t>(Count)};
  bench::parallelFor(Count, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng Random(NumberSeeds[I]);
      const uint32_t PBits = MinFactorBits + Random.below(MaxFactorBits - MinFactorBits + 1);
      uint64_t P = 0;
      while (P == 0)
        P = primeFrom(Random, uint64_t(1) << (PBits - 1), uint64_t(1) << PBits);
      uint64_t Q = 0;
      while (Q == 0) {
        const uint32_t QBits = PBits + Random.below(MaxProductBits - 2 * PBits + 1);
        const uint64_t Low = uint64_t(1) << (QBits - 1), High = uint64_t(1) << QBits;
        if (P < High - 1)
          Q = primeFrom(Random, P >= Low ? P + 1 : Low, High);
      }
      Out.N[I] = P * Q;
      Out.Small[I] = P;
    }
  });
  return Out;
}

} // namespace rho
