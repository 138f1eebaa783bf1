// The per-instance work of the sat app, shared by its kernels: a DPLL solver
// with unit propagation and chronological backtracking, written as a loop
// with a fixed-size trail in a local array instead of recursion.
//
// An assignment is two 64-bit masks, the variables set true and those set
// false, and a clause (three literals of one byte: the variable in bits 0-5,
// bit 6 if negated) becomes two masks, its positive and its negative
// variables, so that "satisfied", "its free variables" and "unit" are a few
// AND / OR operations. propagate() sweeps the instance's clauses, four per
// 16-byte load, assigning the free literal of every unit clause as it meets
// it, until a whole round of them assigns nothing (or it finds a clause with
// every literal false); that round also finds the first clause not yet
// satisfied. decide() makes that clause's first free literal true;
// backtrack() pops the trail to the most recent decision whose other value is
// untried and assigns that value. solve() loops over the three. Threads
// diverge on the search: a small or easy instance is settled after a few
// decisions, a hard one needs a hundred or more (DecisionCap stops it), and
// every decision and every backtrack costs one or more rounds over the
// clauses.
#pragma once

#include <cstdint>

namespace sat {

#if defined(__CUDACC__)
#define SAT_HD __host__ __device__
#else
#define SAT_HD
#endif

constexpr uint32_t MaxVars = 40;
constexpr uint32_t NegatedBit = 0x40;
// The solver gives up before a decision beyond this many, as batch solvers
// bound their effort per query and hand the rest to a complete solver.
constexpr uint32_t DecisionCap = 128;

// Four clauses, a 16-byte load.
struct alignas(16) ClauseQuad {
  uint32_t Clause[4];
};

enum Status : uint32_t { Unsatisfiable = 0, Satisfiable = 1, Capped = 2 };

// What a thread writes: the model (the variables set true; unassigned ones
// are false) if satisfiable, else 0.
struct Verdict {
  uint64_t Model;
  uint32_t Decisions;
  uint32_t Outcome; // a Status
};

struct Assignment {
  uint64_t True, False;
};

// The trail: every assigned variable in the order it was assigned, one byte
// each: the variable, NegatedBit if it is false, DecisionBit if it is a
// decision whose other value is still to try. Its length is kept apart, in
// a register: in the same struct as the bytes it went to local memory too.
constexpr uint32_t DecisionBit = 0x80;
struct Trail {
  uint8_t *Entry; // MaxVars bytes
  uint32_t &Length;
};

SAT_HD inline uint32_t lowestBit(uint64_t X) {
#if defined(__CUDA_ARCH__)
  return uint32_t(__ffsll(static_cast<long long>(X)) - 1);
#else
  return uint32_t(__builtin_ctzll(X));
#endif
}

SAT_HD inline void assign(Assignment &A, Trail &T, uint32_t Literal) {
  const uint64_t Bit = 1ull << (Literal & 63);
  if (Literal & NegatedBit)
    A.False |= Bit;
  else
    A.True |= Bit;
  T.Entry[T.Length++] = uint8_t(Literal);
}

// What a propagation ends with: a conflict, every clause satisfied, or the
// literal to decide next (the first free literal of the first clause not
// yet satisfied).
constexpr uint32_t Conflict = 0x100, AllSatisfied = 0x200;

// Sweeps the clauses round and round, from the quad after the one that
// last assigned, until a whole round of QuadCount quads assigns nothing:
// the unit clauses' closure (the textbook "repeat full sweeps until nothing
// changes" reads on average half a sweep more). That quiet round sees every
// clause in the closure's state, so it also finds the first open clause.
SAT_HD inline uint32_t propagate(const ClauseQuad *Quads, uint32_t QuadCount, Assignment &A,
                                 Trail &T) {
  uint32_t Quiet = 0, Q = 0;
  uint32_t OpenIndex = UINT32_MAX, Open = AllSatisfied;
  while (Quiet < QuadCount) {
    const ClauseQuad Four = Quads[Q];
    bool Assigned = false;
    for (uint32_t C = 0; C < 4; ++C) {
      const uint32_t Clause = Four.Clause[C];
      uint64_t Positive = 0, Negative = 0;
      for (uint32_t S = 0; S < 3; ++S) {
        const uint32_t Literal = Clause >> (8 * S);
        const uint64_t Bit = 1ull << (Literal & 63);
        if (Literal & NegatedBit)
          Negative |= Bit;
        else
          Positive |= Bit;
      }
      if ((Positive & A.True) | (Negative & A.False))
        continue;
      const uint64_t Free = (Positive | Negative) & ~(A.True | A.False);
      if (Free == 0)
        return Conflict;
      if ((Free & (Free - 1)) == 0) {
        assign(A, T, lowestBit(Free) | ((Negative & Free) ? NegatedBit : 0));
        Assigned = true;
      } else if (4 * Q + C < OpenIndex) {
        uint32_t S = 0;
        while (!((Free >> ((Clause >> (8 * S)) & 63)) & 1))
          ++S;
        OpenIndex = 4 * Q + C;
        Open = (Clause >> (8 * S)) & (NegatedBit | 63);
      }
    }
    // A quad that assigned may have seen some of its clauses before: the
    // round starts again after it.
    if (Assigned) {
      Quiet = 0;
      OpenIndex = UINT32_MAX;
      Open = AllSatisfied;
    } else {
      ++Quiet;
    }
    Q = Q + 1 == QuadCount ? 0 : Q + 1;
  }
  return Open;
}

SAT_HD inline void decide(Assignment &A, Trail &T, uint32_t Literal) {
  assign(A, T, Literal | DecisionBit);
}

// Undoes the assignments after the latest decision still to flip and
// assigns the decision's other value (no longer a decision: both values are
// then tried). False when no such decision is left: the instance is
// unsatisfiable.
SAT_HD inline bool backtrack(Assignment &A, Trail &T) {
  while (T.Length > 0) {
    const uint32_t Entry = T.Entry[--T.Length];
    const uint64_t Keep = ~(1ull << (Entry & 63));
    A.True &= Keep;
    A.False &= Keep;
    if (Entry & DecisionBit) {
      assign(A, T, (Entry ^ NegatedBit) & (NegatedBit | 63));
      return true;
    }
  }
  return false;
}

// Always inlined: each kernel then holds the search loop itself, where
// divopt's profile counts it, as the other apps' kernels hold their work.
SAT_HD inline __attribute__((always_inline)) Verdict solve(const ClauseQuad *Quads,
                                                           uint32_t QuadCount) {
  Assignment A{0, 0};
  uint8_t Entries[MaxVars];
  uint32_t Length = 0;
  Trail T{Entries, Length};
  uint32_t Decisions = 0;
  for (;;) {
    const uint32_t Next = propagate(Quads, QuadCount, A, T);
    if (Next == Conflict) {
      if (!backtrack(A, T))
        return {0, Decisions, Unsatisfiable};
    } else if (Next == AllSatisfied) {
      return {A.True, Decisions, Satisfiable};
    } else if (Decisions == DecisionCap) {
      return {0, Decisions, Capped};
    } else {
      decide(A, T, Next);
      ++Decisions;
    }
  }
}

} // namespace sat
