// The per-thread work of the viterbi app, shared by its kernels: Viterbi
// decoding of one observation sequence through the model (ViterbiModel.h),
// the trellis's current column of 16 path costs in registers.
//
// A step computes, for each state j, the cheapest predecessor i of
// cost[i] + transition(i, j), adds the emission cost of the step's symbol
// in j, and records i (the backpointer). The costs are kept scaled by 16
// and each packed transition cost carries its predecessor in its low 4 bits
// (Step[i][j] = 16 transition(i, j) + i), so a candidate's low bits are i
// and one unsigned minimum over the 16 candidates finds the cheapest
// predecessor and its number together, ties going to the lowest i: a step is
// 256 additions and 240 minima, then per state a mask, an addition and the
// backpointer's 4 bits shifted into a 64-bit word, which is stored once.
// The last column's cheapest state (ties to the lowest) starts the
// backtrack, which follows the stored backpointers to the first step,
// folding the states it visits (last first) into an FNV-1a hash.
//
// Costs stay small enough that nothing overflows: at most 512 a step
// (ViterbiModel.h), 2000 steps (ViterbiInput.h), so under 2^24 scaled.
//
// The transitions are the same for every thread and indexed only by
// constants once the loops are unrolled, so the kernels keep them in
// constant memory, read through the uniform datapath (one value for the
// whole warp, no per-lane load); the emission row depends on the step's
// symbol, which differs between lanes, so it comes from global memory (2 KiB,
// L1-resident), copied whole so that it is read with 16-byte loads.
#pragma once

#include "ViterbiModel.h"

#include <cstdint>
#include <vector>

namespace viterbi {

#if defined(__CUDACC__)
#define VITERBI_HD __host__ __device__
#else
#define VITERBI_HD
#endif

constexpr uint32_t StateBits = 4;
static_assert(1u << StateBits == States, "a state's number fills StateBits");
static_assert(StateBits * States == 64, "a step's backpointers fill a 64-bit word");

struct Transitions {
  uint32_t Start[States];        // 16 cost(start in j)
  uint32_t Step[States][States]; // [i][j]: 16 cost(i -> j) + i
};

struct alignas(16) EmissionRow {
  uint32_t Cost[States]; // 16 cost(state j emits the row's symbol)
};

// What a thread writes.
struct Decoded {
  uint32_t Cost;     // the best path's cost, in 1/32 bits
  uint32_t PathHash; // FNV-1a of its states, last first
};

constexpr uint32_t HashBasis = 2166136261u, HashPrime = 16777619u;

inline Transitions packTransitions(const Model &M) {
  Transitions T;
  for (uint32_t J = 0; J < States; ++J)
    T.Start[J] = cost(M.Start[J]) << StateBits;
  for (uint32_t I = 0; I < States; ++I)
    for (uint32_t J = 0; J < States; ++J)
      T.Step[I][J] = (cost(M.Transition[I][J]) << StateBits) + I;
  return T;
}

// One row per symbol.
inline std::vector<EmissionRow> packEmissions(const Model &M) {
  std::vector<EmissionRow> Rows(Symbols);
  for (uint32_t C = 0; C < Symbols; ++C)
    for (uint32_t J = 0; J < States; ++J)
      Rows[C].Cost[J] = cost(M.Emission[J][C]) << StateBits;
  return Rows;
}

VITERBI_HD inline uint32_t smaller(uint32_t A, uint32_t B) { return A < B ? A : B; }

// Decodes Observed[0 .. Length - 1] (Length >= 1). Back has room for Length
// words: Back[t] receives step t's backpointers (Back[0] is not used, the
// first column has no predecessors). Always inlined: each kernel then holds
// the step loop itself, where divopt's profile counts it, and the
// transitions' loads come straight from the kernel's constant table.
VITERBI_HD inline __attribute__((always_inline)) Decoded decode(const Transitions &T,
                                                                const EmissionRow *Emission,
                                                                const uint8_t *Observed,
                                                                uint32_t Length, uint64_t *Back) {
  constexpr uint32_t Mask = States - 1;
  uint32_t Cost[States];
  const EmissionRow First = Emission[Observed[0]];
#pragma unroll
  for (uint32_t J = 0; J < States; ++J)
    Cost[J] = T.Start[J] + First.Cost[J];
  for (uint32_t Step = 1; Step < Length; ++Step) {
    const EmissionRow E = Emission[Observed[Step]];
    uint32_t Next[States];
    uint64_t Pointers = 0;
#pragma unroll
    for (uint32_t J = 0; J < States; ++J) {
      uint32_t Best = Cost[0] + T.Step[0][J];
#pragma unroll
      for (uint32_t I = 1; I < States; ++I)
        Best = smaller(Best, Cost[I] + T.Step[I][J]);
      Next[J] = (Best & ~Mask) + E.Cost[J];
      Pointers |= uint64_t(Best & Mask) << (StateBits * J);
    }
    Back[Step] = Pointers;
#pragma unroll
    for (uint32_t J = 0; J < States; ++J)
      Cost[J] = Next[J];
  }
  uint32_t Best = Cost[0];
#pragma unroll
  for (uint32_t J = 1; J < States; ++J)
    Best = smaller(Best, Cost[J] + J);
  uint32_t State = Best & Mask, Hash = HashBasis;
  for (uint32_t Step = Length - 1; Step > 0; --Step) {
    Hash = (Hash ^ State) * HashPrime;
    State = uint32_t(Back[Step] >> (StateBits * State)) & Mask;
  }
  Hash = (Hash ^ State) * HashPrime;
  return {Best >> StateBits, Hash};
}

} // namespace viterbi
