// The per-option work of the binomial app, shared by its kernels and its CPU
// reference: an American put priced on a Cox-Ross-Rubinstein tree of N time
// steps by backward induction, with the early-exercise maximum at every node.
// The work is about N^2 / 2 node updates, and N (16 to 512) follows the
// option's maturity, so threads diverge strongly (BinomialOptions.h).
//
// The values of one time step live in a per-thread array of N + 1 doubles
// (local memory). A pass over it advances Levels = 16 time steps at once: the
// 16 values that each later step still needs are carried in registers, so the
// array is read and written once per 16 steps instead of once per step and
// the loop is bound by FP64 arithmetic, not by local-memory traffic.
//
// Host and GPU must give the same doubles: every product that is added is an
// explicit fma and no multiplication feeds an addition, so neither compiler
// has anything to contract; the tree's parameters (u, d and the discounted
// probabilities) come from the host, which computes them once per option with
// exp and sqrt, and the node prices are powers of d and u^2 built by
// multiplication, so no math-library function runs here.
#pragma once

#include <cmath>
#include <cstdint>

namespace binomial {

#if defined(__CUDACC__)
#define BINOMIAL_HD __host__ __device__
#else
#define BINOMIAL_HD
#endif

constexpr uint32_t MaxSteps = 512;
constexpr uint32_t Levels = 16; // time steps per pass over the array

// An option and its tree, prepared on the host (BinomialOptions.h).
struct Option {
  double Spot, Strike;
  double Up, Down;         // u = exp(sigma sqrt(dt)), d = 1 / u
  double DiscUp, DiscDown; // exp(-r dt) p and exp(-r dt) (1 - p)
  uint32_t Steps;          // N: a multiple of Levels, at most MaxSteps
};

BINOMIAL_HD inline double greater(double A, double B) { return A > B ? A : B; }

// The node updates americanPut performs for N steps: N + 1 leaves, then per
// pass from step S one update per level for each of its S + 1 nodes (some
// from the pass's first reads land below node 0 and are dropped).
BINOMIAL_HD inline uint64_t nodeUpdates(uint32_t Steps) {
  uint64_t Updates = Steps + 1;
  for (uint32_t S = Steps; S > 0; S -= Levels)
    Updates += uint64_t(Levels) * (S + 1);
  return Updates;
}

// The value at step 0. Node k of step s stands for the price S u^(2k - s), so
// from one node to the next the price grows by the factor u^2; exercising
// pays K minus it. The price carried is the one of the node below (Below), so
// that K - price is one fma, K - Below u^2, and no product is ever added:
// only multiplications build prices (their relative error stays ~N ulps; a
// recurrence on K - price itself would amplify its rounding by u^(2k)).
BINOMIAL_HD inline double americanPut(const Option &O) {
  double Value[MaxSteps + 1]; // one time step's values, node 0 first
  const double Up2 = O.Up * O.Up, Down2 = O.Down * O.Down;
  double DownPow = 1; // d^s for the current step s
  for (uint32_t I = 0; I < O.Steps; ++I)
    DownPow *= O.Down;
  double Below = O.Spot * DownPow * Down2; // node -1 of step N
  for (uint32_t K = 0; K <= O.Steps; ++K) {
    Value[K] = greater(fma(-Below, Up2, O.Strike), 0.0);
    Below *= Up2;
  }
  double UpLevels = 1; // u^Levels: d^s to d^(s - Levels)
  for (uint32_t L = 0; L < Levels; ++L)
    UpLevels *= O.Up;

  // A pass from step S to step S - Levels: reading node M of step S yields
  // node M - 1 - L of step S - 1 - L for every level L. Level L keeps its
  // previous input (Carry[L], node M - 1 - L of step S - L) and the price
  // below the node it yields next (Prices[L]). Results below node 0 (the
  // first Levels reads) are never stored and never feed a stored one.
  for (uint32_t S = O.Steps; S > 0; S -= Levels) {
    double Carry[Levels], Prices[Levels];
    double Pow = DownPow * Down2;
#pragma unroll
    for (uint32_t L = 0; L < Levels; ++L) {
      Carry[L] = 0;
      Pow *= O.Down; // d^(S + 3 + L): node -2 - L of step S - 1 - L
      Prices[L] = O.Spot * Pow;
    }
    for (uint32_t M = 0; M <= S; ++M) {
      double In = Value[M];
#pragma unroll
      for (uint32_t L = 0; L < Levels; ++L) {
        const double Continue = fma(O.DiscUp, In, O.DiscDown * Carry[L]);
        const double Out = greater(Continue, fma(-Prices[L], Up2, O.Strike));
        Prices[L] *= Up2;
        Carry[L] = In;
        In = Out;
      }
      if (M >= Levels)
        Value[M - Levels] = In;
    }
    DownPow *= UpLevels;
  }
  return Value[0];
}

} // namespace binomial
