// The per-realization work of the ssa app, shared by its kernels: Gillespie's
// direct method on a two-state (telegraph) gene-expression network, from
// t = 0 to the end time, in integer fixed point.
//
// The network: a promoter switches on and off; while on it makes mRNA; each
// mRNA makes protein; both decay. Six reactions, in this order:
//   0  promoter on     G 0 -> 1   propensity On x (1 - G)
//   1  promoter off    G 1 -> 0   Off x G
//   2  transcription   M + 1      Transcribe x G
//   3  translation     P + 1      Translate x M
//   4  mRNA decay      M - 1      MrnaDecay x M
//   5  protein decay   P - 1      ProteinDecay x P
// Each event sums the six propensities (a0), takes one 64-bit draw from the
// realization's stream (SsaDraws.h), advances the time by -ln(u1) / a0 with
// u1 from its high 32 bits, and picks the reaction by a linear scan of the
// running sums against u2 a0, u2 from its low 32 bits. The first waiting
// time that reaches past the end time ends the run; that last draw fires no
// reaction.
//
// Rates are Q20 per minute (units of 2^-20 per minute), so propensities are
// exact 64-bit products; times are Q32 minutes. Every operation is an
// integer one, identical on the host and the GPU, and none can overflow:
// waiting times are below 2^57 before the division, propensities below 2^52
// for any count a run reaches. The output's trajectory checksum is the exact
// integral of the protein count over [0, end time], in protein x Q32
// minutes.
//
// Threads diverge on their event counts: a realization whose promoter seldom
// switches on makes a few events, one whose promoter stays on and whose
// mRNAs translate fast makes thousands.
#pragma once

#include "SsaDraws.h"

#include <cstdint>

namespace ssa {

constexpr uint32_t Reactions = 6;
constexpr uint32_t RateBits = 20, TimeBits = 32;
constexpr uint64_t EndMinutes = 100;
constexpr uint64_t EndTime = EndMinutes << TimeBits;

// One realization's rate constants, Q20 per minute.
struct Rates {
  uint32_t On;           // per inactive promoter
  uint32_t Off;          // per active promoter
  uint32_t Transcribe;   // per active promoter
  uint32_t Translate;    // per mRNA
  uint32_t MrnaDecay;    // per mRNA
  uint32_t ProteinDecay; // per protein
};

// What a thread writes: the state at the end time, the events that led to
// it and the protein's time integral. No padding, so its bytes are all
// defined for the checksum.
struct Outcome {
  uint64_t ProteinMinutes; // Q32
  uint32_t Events;
  uint32_t Protein;
  uint32_t Mrna;
  uint32_t PromoterOn;
};

// floor(A x U / 2^32) without a 128-bit product: A's high half times U is
// exact, and its low half times U fits in 64 bits.
SSA_HD inline uint64_t scaleByFraction(uint64_t A, uint32_t U) {
  return (A >> 32) * U + (((A & 0xffffffffull) * U) >> 32);
}

// The waiting time, Q32 minutes, for the draw's high half and a0 (Q20).
SSA_HD inline uint64_t waitingTime(uint64_t Draw, uint64_t A0) {
  return (exponentialQ32((Draw >> 32) + 1) << RateBits) / A0;
}

// Realization Key's run with rates K. a0 is never 0: the promoter is on or
// off, and both switching rates are positive. Always inlined: each kernel
// then holds the event loop itself, where divopt's profile counts it.
SSA_HD inline __attribute__((always_inline)) Outcome simulate(const Rates &K, uint64_t Key) {
  uint32_t On = 0, Mrna = 0, Protein = 0, Events = 0;
  uint64_t Time = 0, Area = 0;
  for (;;) {
    const uint64_t A[Reactions] = {On ? 0 : K.On,
                                   On ? K.Off : 0,
                                   On ? K.Transcribe : 0,
                                   uint64_t(K.Translate) * Mrna,
                                   uint64_t(K.MrnaDecay) * Mrna,
                                   uint64_t(K.ProteinDecay) * Protein};
    uint64_t A0 = 0;
    for (uint32_t J = 0; J < Reactions; ++J)
      A0 += A[J];
    const uint64_t Draw = drawAt(Key, Events);
    const uint64_t Wait = waitingTime(Draw, A0);
    if (Wait >= EndTime - Time) {
      Area += Protein * (EndTime - Time);
      break;
    }
    Time += Wait;
    Area += Protein * Wait;
    // The linear scan, without branches: the reaction is the number of
    // running sums (of the first five) at or below the pick. A reaction of
    // propensity 0 is never picked: its running sum equals the one before.
    const uint64_t Pick = scaleByFraction(A0, uint32_t(Draw));
    uint64_t Sum = 0;
    uint32_t Reaction = 0;
    for (uint32_t J = 0; J + 1 < Reactions; ++J) {
      Sum += A[J];
      Reaction += Pick >= Sum;
    }
    On = On + (Reaction == 0) - (Reaction == 1);
    Mrna = Mrna + (Reaction == 2) - (Reaction == 4);
    Protein = Protein + (Reaction == 3) - (Reaction == 5);
    ++Events;
  }
  return {Area, Events, Protein, Mrna, On};
}

} // namespace ssa
