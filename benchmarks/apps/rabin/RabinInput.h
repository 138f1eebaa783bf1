// The input of the rabin app: odd 64-bit integers whose Miller-Rabin tests
// take from one to seven exponentiations of 20 to 64 bits, mixed at random
// so that nearly every warp holds a large prime and waits for it:
//  - 40% primes, bit length uniform in [20, 64]: all seven bases;
//  - 40% random odd composites, bit length uniform in [20, 64]: base 2
//    witnesses nearly all of them (one exponentiation);
//  - 10% semiprimes p q, p and q random primes of half of a bit length
//    uniform in [40, 64] (products of two primes near 2^32 at the top):
//    one exponentiation too, but no small factor, so the hand-written key
//    takes them for primes;
//  - 10% strong pseudoprimes to base 2, p (2p - 1) with p = 1 mod 4 and p
//    and 2p - 1 prime (32 to 63 bits), a form whose composites fool about a
//    quarter of the bases each: two to six exponentiations.
// Primes are drawn by rejection (random odd integers of the bit length
// until one passes the app's own test, RabinWitness.h, exact below 2^64).
// Strong pseudoprimes are rare (~270 candidates p each), so a pool of 512
// is searched once and the numbers draw from it; 3/8 of the pool must also
// fool base 325, and 1/8 bases 325 and 9375 too, so that some numbers take
// three and four exponentiations.
//
// Every number has its own generator, seeded from Seed in order, and the
// numbers (and the pool) are then drawn in parallel: the same input
// whatever the number of host threads.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "RabinWitness.h"

#include <cstdint>
#include <vector>

namespace rabin {

constexpr double PrimeShare = 0.4, CompositeShare = 0.4, SemiprimeShare = 0.1;
constexpr uint32_t MinBits = 20, MaxBits = 64, SemiprimeMinBits = 40;
// p has 16 to 31 bits, so p (2p - 1) has 32 to 63.
constexpr uint32_t PseudoprimeMinFactorBits = 16, PseudoprimeMaxFactorBits = 31;
constexpr uint32_t PseudoprimePoolSize = 512;

// A uniformly random odd integer of exactly Bits bits, 2 <= Bits <= 64.
inline uint64_t randomOdd(bench::Rng &Random, uint32_t Bits) {
  return (Random.next() >> (64 - Bits)) | (uint64_t(1) << (Bits - 1)) | 1;
}

// A random prime of exactly Bits bits, 7 <= Bits <= 64 (above the small
// primes that hasSmallFactor rejects).
inline uint64_t randomPrime(bench::Rng &Random, uint32_t Bits) {
  for (;;) {
    const uint64_t N = randomOdd(Random, Bits);
    if (!hasSmallFactor(N) && isPrime(N))
      return N;
  }
}

inline uint64_t randomComposite(bench::Rng &Random, uint32_t Bits) {
  for (;;) {
    const uint64_t N = randomOdd(Random, Bits);
    if (hasSmallFactor(N) || !isPrime(N))
      return N;
  }
}

// A composite p (2p - 1) whose first witness is base number MinCode - 1 or
// later (witnessCode at least MinCode, 3 to 5). With q = 2p - 1, n - 1 =
// (p - 1)(2p + 1): every base's order mod p divides it, and its order mod q
// does when the base is a square mod q; p = 1 mod 4 makes q = 1 mod 8, where
// 2 is a square. Such n are the composites that fool the most bases.
inline uint64_t strongPseudoprime(bench::Rng &Random, uint32_t MinCode) {
  for (;;) {
    const uint32_t Bits = PseudoprimeMinFactorBits +
                          Random.below(PseudoprimeMaxFactorBits - PseudoprimeMinFactorBits + 1);
    const uint64_t P = randomOdd(Random, Bits) & ~uint64_t(2);
    const uint64_t Q = 2 * P - 1;
    if (hasSmallFactor(P) || hasSmallFactor(Q) || !isPrime(P) || !isPrime(Q))
      continue;
    if (witnessCode(P * Q) >= MinCode)
      return P * Q;
  }
}

// The pool's entries in order of MinCode 3, 3, 3, 3, 4, 4, 4, 5, repeated:
// the costly ones spread over the parallel ranges.
inline std::vector<uint64_t> pseudoprimePool(bench::Rng &Random) {
  std::vector<uint64_t> Seeds(PseudoprimePoolSize), Pool(PseudoprimePoolSize);
  for (uint64_t &S : Seeds)
    S = Random.next();
  bench::parallelFor(PseudoprimePoolSize, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng EntryRandom(Seeds[I]);
      const uint32_t Slot = I % 8;
      Pool[I] = strongPseudoprime(EntryRandom, Slot < 4 ? 3 : Slot < 7 ? 4 : 5);
    }
  });
  return Pool;
}

inline uint64_t drawNumber(bench::Rng &Random, const std::vector<uint64_t> &Pool) {
  const double Kind = Random.uniform01();
  if (Kind < PrimeShare + CompositeShare) {
    const uint32_t Bits = MinBits + Random.below(MaxBits - MinBits + 1);
    return Kind < PrimeShare ? randomPrime(Random, Bits) : randomComposite(Random, Bits);
  }
  if (Kind < PrimeShare + CompositeShare + SemiprimeShare) {
    const uint32_t Bits = SemiprimeMinBits + Random.below(MaxBits - SemiprimeMinBits + 1);
    const uint64_t P = randomPrime(Random, (Bits + 1) / 2);
    return P * randomPrime(Random, Bits / 2); // Bits - 1 or Bits bits
  }
  return Pool[Random.below(PseudoprimePoolSize)];
}

inline std::vector<uint64_t> generateNumbers(uint32_t N, uint64_t Seed) {
  bench::Rng Random(Seed);
  const std::vector<uint64_t> Pool = pseudoprimePool(Random);
  std::vector<uint64_t> Seeds(N), Numbers(N);
  for (uint64_t &S : Seeds)
    S = Random.next();
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng NumberRandom(Seeds[I]);
      Numbers[I] = drawNumber(NumberRandom, Pool);
    }
  });
  return Numbers;
}

} // namespace rabin
