// The per-number work of the rho app, shared by its kernels (the timed one,
// the hand-written copy and the hand-written key's bounded prefix): Pollard's
// rho with Brent's cycle detection and batched GCDs, as a sieve's
// cofactorization step splits a composite n with no small factor. The walk
// is y <- y^2 / 2^64 + c mod n on Montgomery residues (no conversion in or
// out: that is x <- x^2 + c / 2^64 on the ordinary ones, x = y / 2^64, an
// ordinary rho map, and differences and products of Montgomery residues are
// units times the ordinary ones, so every GCD is the same; RhoReference.h
// walks the ordinary residues and must agree step for step).
//
// Brent's detection runs in rounds r = 1, 2, 4, ...: the walk's value is
// kept, the walk moves r steps on, and each of its next r values is
// compared with the kept one; instead of a GCD per comparison the
// differences are multiplied together and one GCD taken every BatchSize
// steps. The walk
// modulo the smallest prime p enters a cycle after about sqrt(pi p / 2)
// steps, and the first batch whose product p divides ends the search: the
// step count grows as sqrt(p), the thread's divergence. A batch whose
// product n divides (p's and q's cycles closed together, or a zero
// difference) is replayed one GCD per step from its start; if that finds n
// too, the walk starts over with the next constant c. A round (r steps to
// move on, r compared) starts only if its 2r steps fit in the cap, so a
// number still unsplit gives up with factor 0 after the last round that
// fits: 16,382 steps (rounds 1 to 4,096) for StepCap, 510 (rounds 1 to 128)
// for the hand-written key's PrefixCap. A replay adds at most BatchSize.
#pragma once

#include "RhoArithmetic.h"

#include <cstdint>

namespace rho {

// Steps (evaluations of the walk's map) between two GCDs.
constexpr uint32_t BatchSize = 64;
// The most steps a number's rounds may take (replays aside).
constexpr uint32_t StepCap = 1u << 14;
// The hand-written key's bounded prefix: rounds 1 to 128, as a pipeline's
// cheap first pass splits the easy numbers.
constexpr uint32_t PrefixCap = 510;
// Every walk starts at the Montgomery residue 2; c is 1, then 2, 3, ...
constexpr uint64_t WalkStart = 2;

// The factor found (p or q; 0 if none in the cap) and the steps taken.
struct Split {
  uint64_t Factor;
  uint32_t Steps;
};

// Always inlined: each kernel then holds the loops itself, where divopt's
// profile counts them (a call is one instruction to it).
RHO_HD inline __attribute__((always_inline)) Split brentRho(uint64_t N, uint32_t Cap) {
  const Modulus M = modulusOf(N);
  uint32_t Steps = 0;
  for (uint64_t C = 1;; ++C) {
    uint64_t Y = WalkStart, X = Y, BatchStart = Y, Product = 1, Gcd = 1;
    // A round of r takes 2r steps and starts only if they fit in the cap.
    for (uint32_t Round = 1; Gcd == 1 && Steps + 2 * Round <= Cap; Round *= 2) {
      X = Y;
      for (uint32_t I = 0; I < Round; ++I)
        Y = sumMod(montgomeryProduct(M, Y, Y), C, N);
      Steps += Round;
      for (uint32_t Done = 0; Done < Round && Gcd == 1; Done += BatchSize) {
        BatchStart = Y;
        const uint32_t Batch = Round - Done < BatchSize ? Round - Done : BatchSize;
        for (uint32_t I = 0; I < Batch; ++I) {
          Y = sumMod(montgomeryProduct(M, Y, Y), C, N);
          Product = montgomeryProduct(M, Product, X > Y ? X - Y : Y - X);
        }
        Steps += Batch;
        Gcd = gcdWithOdd(Product, N);
      }
    }
    if (Gcd == 1)
      return {0, Steps};
    if (Gcd == N) {
      // Some step of the last batch met n's factor: it is the first step
      // whose own difference shares a factor with n.
      do {
        BatchStart = sumMod(montgomeryProduct(M, BatchStart, BatchStart), C, N);
        ++Steps;
        Gcd = gcdWithOdd(X > BatchStart ? X - BatchStart : BatchStart - X, N);
      } while (Gcd == 1);
    }
    if (Gcd != N)
      return {Gcd, Steps};
  }
}

// The hand-written variant's key, from the first PrefixCap steps of the
// same walk: a number split by then gets its exact step count (at most
// PrefixCap + BatchSize); the others, about half, get UnsplitKey plus n's
// bit length, the only other thing known about p (p <= sqrt(n)), and go
// first.
constexpr uint32_t UnsplitKey = 1u << 16;

RHO_HD inline __attribute__((always_inline)) uint32_t prefixKey(uint64_t N) {
  const Split Prefix = brentRho(N, PrefixCap);
  return Prefix.Factor != 0 ? Prefix.Steps : UnsplitKey + bitLength(N);
}

} // namespace rho
