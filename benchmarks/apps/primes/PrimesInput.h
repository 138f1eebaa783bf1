// The input of the primes app: 32-bit integers from three classes whose trial
// division costs differ by orders of magnitude, mixed at random so every warp
// holds all three:
//  - 40% smooth numbers, products of primes below 1000 (small ones likelier)
//    up to a log-uniform bound in [2^16, 2^32): a few to ~310 candidates;
//  - 30% semiprimes p q, p a prime log-uniform in [2^8, 2^14) and q one in
//    [2^14, 2^32 / p): the loop stops at p, after ~p / 3 candidates (88 to
//    5,462);
//  - 30% primes log-uniform in [2^26, 2^32): every candidate up to the square
//    root, 2,732 to 21,846.
// Primes are drawn by rejection (log-uniform candidates until one is prime),
// tested by Miller-Rabin with the bases 2, 7 and 61, which decide primality
// exactly below 4,759,123,141.
#pragma once

#include "../common/Random.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace primes {

inline uint32_t powMod(uint64_t Base, uint32_t Exp, uint32_t Mod) {
  uint64_t Result = 1;
  for (Base %= Mod; Exp; Exp >>= 1, Base = Base * Base % Mod)
    if (Exp & 1)
      Result = Result * Base % Mod;
  return uint32_t(Result);
}

inline bool isPrime(uint32_t N) {
  if (N < 2)
    return false;
  // Small primes settle most composites cheaply, and leave only N above the
  // witnesses.
  for (uint32_t P : {2u, 3u, 5u, 7u, 11u, 13u, 61u})
    if (N % P == 0)
      return N == P;
  uint32_t Odd = N - 1, Twos = 0;
  for (; Odd % 2 == 0; Odd /= 2)
    ++Twos;
  // N - 1 = Odd 2^Twos: a prime N makes Witness^Odd 1, or one of its first
  // Twos squarings N - 1.
  for (uint32_t Witness : {2u, 7u, 61u}) {
    uint64_t X = powMod(Witness, Odd, N);
    bool Passed = X == 1 || X == N - 1;
    for (uint32_t S = 1; S < Twos && !Passed; ++S) {
      X = X * X % N;
      Passed = X == N - 1;
    }
    if (!Passed)
      return false;
  }
  return true;
}

// A prime drawn log-uniformly from [Lo, Hi), 2 <= Lo < Hi <= 2^32.
inline uint32_t randomPrime(bench::Rng &Random, double Lo, double Hi) {
  for (;;) {
    double X = Lo * std::pow(Hi / Lo, Random.uniform01());
    uint32_t Candidate = uint32_t(std::fmin(X, 4294967295.0)); // pow may round up to 2^32
    if (isPrime(Candidate))
      return Candidate;
  }
}

inline std::vector<uint32_t> generateNumbers(uint32_t N, uint64_t Seed) {
  bench::Rng Random(Seed);
  std::vector<uint32_t> SmallPrimes;
  for (uint32_t P = 2; P < 1000; ++P)
    if (isPrime(P))
      SmallPrimes.push_back(P);
  const uint32_t Small = uint32_t(SmallPrimes.size());
  std::vector<uint32_t> Numbers(N);
  for (uint32_t I = 0; I < N; ++I) {
    const double Kind = Random.uniform01();
    if (Kind < 0.4) {
      const double Bound = std::exp2(16 + 16 * Random.uniform01());
      uint64_t Product = SmallPrimes[Random.below(Random.below(Small) + 1)];
      for (;;) {
        uint64_t Next = Product * SmallPrimes[Random.below(Random.below(Small) + 1)];
        if (double(Next) >= Bound)
          break;
        Product = Next;
      }
      Numbers[I] = uint32_t(Product);
    } else if (Kind < 0.7) {
      const uint32_t P = randomPrime(Random, 0x1p8, 0x1p14);
      Numbers[I] = P * randomPrime(Random, 0x1p14, 0x1p32 / P);
    } else {
      Numbers[I] = randomPrime(Random, 0x1p26, 0x1p32);
    }
  }
  return Numbers;
}

} // namespace primes
