// CPU reference for the ssa app: the same direct method written another
// way. The state is a vector of species counts (promoter on, mRNA, protein),
// each reaction a row of a stoichiometry matrix and a reactant, the
// reaction is found by subtracting propensities from the pick until one
// exceeds what is left (an early-exit scan), and the run counts the time
// left down instead of the time up. It shares only the draws (SsaDraws.h)
// and the fixed-point waiting time, so it fires the same reactions at the
// same times: every output must be equal.
#pragma once

#include "../common/ParallelFor.h"
#include "SsaDirect.h"
#include "SsaDraws.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ssa {

namespace reference {

enum Species { Promoter, Rna, Protein, SpeciesCount };

// The species whose count (or, for activation, whose absence) a reaction's
// propensity is proportional to, and what the reaction changes.
struct Reaction {
  Species Reactant;
  bool NeedsInactive;
  std::array<int32_t, SpeciesCount> Change;
};

constexpr std::array<Reaction, Reactions> Network = {{
    {Promoter, true, {+1, 0, 0}},
    {Promoter, false, {-1, 0, 0}},
    {Promoter, false, {0, +1, 0}},
    {Rna, false, {0, 0, +1}},
    {Rna, false, {0, -1, 0}},
    {Protein, false, {0, 0, -1}},
}};

inline Outcome run(const Rates &Given, uint64_t Key) {
  const std::array<uint64_t, Reactions> K = {Given.On,        Given.Off,       Given.Transcribe,
                                             Given.Translate, Given.MrnaDecay, Given.ProteinDecay};
  std::array<int64_t, SpeciesCount> X = {0, 0, 0};
  uint64_t Left = EndTime, Area = 0;
  uint32_t Events = 0;
  for (;; ++Events) {
    std::array<uint64_t, Reactions> A;
    uint64_t Total = 0;
    for (uint32_t J = 0; J < Reactions; ++J) {
      const int64_t Count = X[Network[J].Reactant];
      A[J] = K[J] * uint64_t(Network[J].NeedsInactive ? 1 - Count : Count);
      Total += A[J];
    }
    const uint64_t Draw = drawAt(Key, Events);
    const uint64_t Wait = waitingTime(Draw, Total);
    const uint64_t Until = Wait < Left ? Wait : Left;
    Area += uint64_t(X[Protein]) * Until;
    if (Wait >= Left)
      break;
    Left -= Wait;
    uint64_t Pick = scaleByFraction(Total, uint32_t(Draw));
    uint32_t J = 0;
    while (Pick >= A[J])
      Pick -= A[J++];
    for (uint32_t S = 0; S < SpeciesCount; ++S)
      X[S] += Network[J].Change[S];
  }
  return {Area, Events, uint32_t(X[Protein]), uint32_t(X[Rna]), uint32_t(X[Promoter])};
}

} // namespace reference

inline std::vector<Outcome> referenceOutcomes(const std::vector<Rates> &Sweep, uint64_t Seed) {
  std::vector<Outcome> Out(Sweep.size());
  bench::parallelFor(Sweep.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      Out[I] = reference::run(Sweep[I], streamKey(Seed, uint32_t(I)));
  });
  return Out;
}

} // namespace ssa
