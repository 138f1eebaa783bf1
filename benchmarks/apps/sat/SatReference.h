// CPU reference for the sat app: the same search written another way. A
// recursive DPLL keeps each level's assignment on the call stack (no trail),
// and its unit propagation works literal by literal on decoded clauses
// rather than on masks, repeating until nothing changes. Propagation's result
// (the closure of the unit clauses, or a conflict) does not depend on the
// order clauses are visited in, and the branching literal is taken from the
// closure alone (the first free literal of the first clause not satisfied;
// that value first), so both solvers walk the same search tree: status,
// decision count and model must be equal. satisfies() checks a model
// against every clause of its instance.
#pragma once

#include "../common/ParallelFor.h"
#include "SatInstances.h"
#include "SatSolve.h"

#include <cstdint>
#include <vector>

namespace sat {

namespace reference {

struct Literal {
  uint32_t Var;
  bool Negated;
};

struct Instance {
  std::vector<Literal> Literals; // 3 per clause
};

// Value of a literal under (True, False): 1 true, 0 false, -1 free.
inline int value(const Literal &L, uint64_t True, uint64_t False) {
  const uint64_t Bit = 1ull << L.Var;
  if (!((True | False) & Bit))
    return -1;
  return ((True & Bit) != 0) != L.Negated;
}

// Assigns unit clauses' literals until none is left; false on a clause
// with every literal false.
inline bool closeUnits(const Instance &I, uint64_t &True, uint64_t &False) {
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t C = 0; C < I.Literals.size(); C += 3) {
      int FreeCount = 0;
      const Literal *Free = nullptr;
      bool Satisfied = false;
      for (size_t S = C; S < C + 3; ++S) {
        const int V = value(I.Literals[S], True, False);
        Satisfied |= V == 1;
        if (V == -1) {
          ++FreeCount;
          Free = &I.Literals[S];
        }
      }
      if (Satisfied)
        continue;
      if (FreeCount == 0)
        return false;
      if (FreeCount == 1) {
        (Free->Negated ? False : True) |= 1ull << Free->Var;
        Changed = true;
      }
    }
  }
  return true;
}

struct Search {
  const Instance &I;
  uint32_t Decisions = 0;
  uint64_t Model = 0;

  Status from(uint64_t True, uint64_t False) {
    if (!closeUnits(I, True, False))
      return Unsatisfiable;
    const Literal *Branch = nullptr;
    for (size_t C = 0; C < I.Literals.size() && !Branch; C += 3) {
      bool Satisfied = false;
      for (size_t S = C; S < C + 3; ++S)
        Satisfied |= value(I.Literals[S], True, False) == 1;
      for (size_t S = C; S < C + 3 && !Satisfied && !Branch; ++S)
        if (value(I.Literals[S], True, False) == -1)
          Branch = &I.Literals[S];
    }
    if (!Branch) {
      Model = True;
      return Satisfiable;
    }
    if (Decisions == DecisionCap)
      return Capped;
    ++Decisions;
    const uint64_t Bit = 1ull << Branch->Var;
    const Status First = Branch->Negated ? from(True, False | Bit) : from(True | Bit, False);
    if (First != Unsatisfiable)
      return First;
    return Branch->Negated ? from(True | Bit, False) : from(True, False | Bit);
  }
};

inline Instance decode(const Batch &B, uint32_t I) {
  Instance Out;
  for (uint32_t Q = B.FirstQuad[I]; Q < B.FirstQuad[I + 1]; ++Q)
    for (uint32_t Clause : B.Quads[Q].Clause)
      for (uint32_t S = 0; S < 3; ++S) {
        const uint32_t L = (Clause >> (8 * S)) & 0xff;
        Out.Literals.push_back({L & 63, (L & NegatedBit) != 0});
      }
  return Out;
}

} // namespace reference

inline std::vector<Verdict> referenceVerdicts(const Batch &B) {
  std::vector<Verdict> Out(B.instances());
  bench::parallelFor(B.instances(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      const reference::Instance Inst = reference::decode(B, uint32_t(I));
      reference::Search S{Inst};
      const Status Outcome = S.from(0, 0);
      Out[I] = {Outcome == Satisfiable ? S.Model : 0, S.Decisions, Outcome};
    }
  });
  return Out;
}

// Whether Model (the variables set true, the others false) satisfies every
// clause of instance I.
inline bool satisfies(const Batch &B, uint32_t I, uint64_t Model) {
  const reference::Instance Inst = reference::decode(B, I);
  for (size_t C = 0; C < Inst.Literals.size(); C += 3) {
    bool Satisfied = false;
    for (size_t S = C; S < C + 3; ++S)
      Satisfied |= reference::value(Inst.Literals[S], Model, ~Model) == 1;
    if (!Satisfied)
      return false;
  }
  return true;
}

} // namespace sat
