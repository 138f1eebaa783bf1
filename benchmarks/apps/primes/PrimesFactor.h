// The per-number work of the primes app, shared by its kernels: trial
// division of a 32-bit integer by 2, 3 and then the candidates 6k - 1,
// 6k + 1 up to the square root of what is left. Each candidate costs an
// integer division; the loop stops once the factors found leave a cofactor
// below the next candidate's square, so the work is set by the
// second-largest prime factor (or the square root of the largest): a few
// candidates for smooth numbers, up to 21,846 for primes near 2^32.
#pragma once

#include <cmath>
#include <cstdint>

namespace primes {

#if defined(__CUDACC__)
#define PRIMES_HD __host__ __device__
#else
#define PRIMES_HD
#endif

struct Factors {
  uint32_t Count;      // prime factors, with multiplicity
  uint32_t Largest;    // the largest prime factor
  uint32_t Candidates; // trial divisors tried: the work
};

// Divides candidate D out of N as often as it divides, recording each factor.
PRIMES_HD inline void divideOut(uint32_t &N, uint32_t D, Factors &F) {
  ++F.Candidates;
  while (N % D == 0) {
    N /= D;
    ++F.Count;
    F.Largest = D;
  }
}

// N >= 2. Candidates only grow, so the last one that divides is the largest
// found, and a cofactor left above 1 has no factor below its square root: it
// is prime, and larger still.
PRIMES_HD inline Factors factorize(uint32_t N) {
  Factors F{0, 0, 0};
  divideOut(N, 2, F);
  divideOut(N, 3, F);
  for (uint32_t D = 5; uint64_t(D) * D <= N; D += 6) {
    divideOut(N, D, F);
    divideOut(N, D + 2, F);
  }
  if (N > 1) {
    ++F.Count;
    F.Largest = N;
  }
  return F;
}

// The hand-written variant's key: the candidates factorize(N) tries, counted
// while they are below DivisorBound and, from there on, estimated as if the
// cofactor left were prime (every candidate pair up to its square root; the
// double square root of a 32-bit integer rounds down to the right integer).
// Exact for smooth numbers and primes; a semiprime whose factors are both
// above the bound is ranked with the primes of its size.
PRIMES_HD inline uint32_t estimateCandidates(uint32_t N, uint32_t DivisorBound) {
  Factors F{0, 0, 0};
  divideOut(N, 2, F);
  divideOut(N, 3, F);
  for (uint32_t D = 5; uint64_t(D) * D <= N; D += 6) {
    if (D >= DivisorBound)
      return F.Candidates + 2 * ((uint32_t(sqrt(double(N))) - D) / 6 + 1);
    divideOut(N, D, F);
    divideOut(N, D + 2, F);
  }
  return F.Candidates;
}

} // namespace primes
