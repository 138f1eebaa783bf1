// The hidden Markov model of the viterbi app: 16 states, 32 observation
// symbols, shared by every sequence, as a keyword spotter's or a tagger's
// model is shared by every utterance or sentence it decodes. Probabilities
// are counts out of 256, every one at least 1, so every path has a finite
// cost and the tables that generate the sequences (ViterbiInput.h) are the
// model itself.
//
// The shape is a segment model: a state stays with probability 1/2 to 7/8
// (segments of 2 to 8 steps on average), else mostly moves to one of three
// successors (the next two states round a cycle, as in a left-to-right
// model, and one jump elsewhere), and emits four preferred symbols most of
// the time, any symbol otherwise. Preferred symbols overlap between states,
// so a symbol alone does not say which state emitted it: the best path
// depends on its neighbours.
//
// Decoders add costs instead of multiplying probabilities: a probability of
// c/256 costs round(32 (8 - log2 c)), -log2 p in 1/32 bits, from 0 (c = 256)
// to 256 (c = 1), an integer, so the kernel and the CPU reference agree bit
// for bit.
#pragma once

#include "../common/Random.h"

#include <cmath>
#include <cstdint>

namespace viterbi {

constexpr uint32_t States = 16, Symbols = 32;
constexpr uint32_t Quantum = 256; // a row's counts sum to it

struct Model {
  uint16_t Start[States];
  uint16_t Transition[States][States]; // [from][to]
  uint16_t Emission[States][Symbols];  // [state][symbol]
};

// The cost of a probability of Count / 256, 1 <= Count <= 256.
inline uint32_t cost(uint32_t Count) {
  return uint32_t(std::lround(32.0 * (8.0 - std::log2(double(Count)))));
}

namespace detail {

// Row[K] = 1 for K < Size, then Units more units dealt out one at a time,
// each to the entry Choose(R) names.
template <class Chooser>
void dealRow(uint16_t *Row, uint32_t Size, uint32_t Units, bench::Rng &R, const Chooser &Choose) {
  for (uint32_t K = 0; K < Size; ++K)
    Row[K] = 1;
  for (uint32_t U = 0; U < Units; ++U)
    ++Row[Choose(R)];
}

} // namespace detail

// The model of seed Seed: drawn from the stream of item 2^64 - 1, which no
// sequence uses, with integer draws only.
inline Model generateModel(uint64_t Seed) {
  bench::Rng R = bench::itemRng(Seed, ~0ull);
  Model M;
  detail::dealRow(M.Start, States, Quantum - States, R,
                  [](bench::Rng &G) { return G.below(States); });
  for (uint32_t S = 0; S < States; ++S) {
    const uint32_t Stay = 128 + R.below(97); // 1/2 to 7/8
    uint32_t Jump;
    do
      Jump = R.below(States);
    while (Jump == S);
    const uint32_t Successors[3] = {(S + 1) % States, (S + 2) % States, Jump};
    detail::dealRow(M.Transition[S], States, Quantum - States - (Stay - 1), R,
                    [&](bench::Rng &G) { return Successors[G.below(3)]; });
    M.Transition[S][S] = uint16_t(Stay);
    uint32_t Preferred[4];
    for (uint32_t &P : Preferred)
      P = R.below(Symbols);
    // Three units in four go to a preferred symbol, the rest anywhere.
    detail::dealRow(M.Emission[S], Symbols, Quantum - Symbols, R, [&](bench::Rng &G) {
      const uint32_t D = G.below(16);
      return D < 12 ? Preferred[D % 4] : G.below(Symbols);
    });
  }
  return M;
}

} // namespace viterbi
