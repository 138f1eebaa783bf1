// The input of the sat app: a batch of small random 3-SAT instances, as a
// bounded model checker or an equivalence sweep hands thousands of tiny
// independent queries to one solver launch. Instance i has n variables (n
// uniform over 16 to 40) and m clauses, m / n uniform over 4.00 to 4.50 in
// steps of 0.01 (rounded so that m is a multiple of 4): around the
// satisfiability threshold (~4.27), where random 3-SAT is hardest and about
// half the instances are satisfiable. A clause has 3 distinct variables,
// drawn uniformly, each negated with probability 1/2.
//
// Clauses are stored CSR-like: instance i's clauses are the quads
// FirstQuad[i] to FirstQuad[i + 1] - 1 of one array, four clauses of 32 bits
// in a 16-byte quad, so a solver reads them with one vector load per four
// clauses. Every instance draws from its own bench::Rng stream, seeded by the
// seed and the instance's number, so generation runs in parallel and the
// input does not depend on the number of host threads.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "SatSolve.h"

#include <cstdint>
#include <vector>

namespace sat {

constexpr uint32_t MinVars = 16;
static_assert(MaxVars <= 63, "a literal holds its variable in 6 bits");
// Clause / variable ratios, in hundredths.
constexpr uint32_t MinRatio = 400, MaxRatio = 450;

struct Batch {
  std::vector<uint32_t> FirstQuad; // instances + 1 offsets into Quads
  std::vector<uint8_t> Vars;       // each instance's n
  std::vector<ClauseQuad> Quads;
  uint32_t instances() const { return uint32_t(Vars.size()); }
};

namespace detail {

// The instance's size, the first draws of its stream: n, and m / 4 (m =
// ratio x n rounded to a multiple of 4).
inline void drawSize(bench::Rng &R, uint32_t &Vars, uint32_t &Quads) {
  Vars = MinVars + R.below(MaxVars - MinVars + 1);
  const uint32_t Ratio = MinRatio + R.below(MaxRatio - MinRatio + 1);
  Quads = (Vars * Ratio + 200) / 400;
}

inline uint32_t randomClause(bench::Rng &R, uint32_t Vars) {
  uint32_t V[3];
  V[0] = R.below(Vars);
  do
    V[1] = R.below(Vars);
  while (V[1] == V[0]);
  do
    V[2] = R.below(Vars);
  while (V[2] == V[0] || V[2] == V[1]);
  uint32_t Clause = 0;
  for (uint32_t S = 0; S < 3; ++S)
    Clause |= (V[S] | (R.below(2) ? NegatedBit : 0)) << (8 * S);
  return Clause;
}

} // namespace detail

inline Batch generateBatch(uint32_t N, uint64_t Seed) {
  Batch B;
  B.FirstQuad.assign(N + 1, 0);
  B.Vars.resize(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng R = bench::itemRng(Seed, uint32_t(I));
      uint32_t Vars, Quads;
      detail::drawSize(R, Vars, Quads);
      B.Vars[I] = uint8_t(Vars);
      B.FirstQuad[I + 1] = Quads;
    }
  });
  for (uint32_t I = 0; I < N; ++I)
    B.FirstQuad[I + 1] += B.FirstQuad[I];
  B.Quads.resize(B.FirstQuad[N]);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng R = bench::itemRng(Seed, uint32_t(I));
      uint32_t Vars, Quads;
      detail::drawSize(R, Vars, Quads);
      for (uint32_t Q = B.FirstQuad[I]; Q < B.FirstQuad[I + 1]; ++Q)
        for (uint32_t &Clause : B.Quads[Q].Clause)
          Clause = detail::randomClause(R, Vars);
    }
  });
  return B;
}

} // namespace sat
