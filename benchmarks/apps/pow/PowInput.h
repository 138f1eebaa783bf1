// The input of the pow app: a batch of hashcash-style puzzles, as a gateway
// that mints a stamp for each outgoing request sees them when every
// receiver's rate limiter sets its own difficulty. A header is the 128-bit
// digest of its request (uniformly random here). The difficulty is 4 bits
// plus one bit per doubling of the sender's request rate over the free
// rate, rates being heavy-tailed (Pareto with exponent 1): P(difficulty >=
// 4 + k) = 2^-k, drawn exactly as 4 + the leading zero bits of a random
// 64-bit word, capped at 16 bits. Half the puzzles take 4 bits (16 hashes
// on average), one in 4,096 takes 16 (65,536, beyond the search budget):
// each bit of difficulty adds the same expected work to the batch, about 8
// hashes per puzzle, but nearly all of it sits in a few lanes of a warp.
// Difficulties are mixed at random: requests arrive interleaved from all
// senders.
#pragma once

#include "../common/Random.h"
#include "PowSearch.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace proofofwork {

constexpr uint32_t MinDifficulty = 4, MaxDifficulty = 16;

inline std::vector<Puzzle> generatePuzzles(uint32_t N, uint64_t Seed) {
  bench::Rng R(Seed);
  std::vector<Puzzle> Out(N);
  for (Puzzle &P : Out) {
    P.H.Lo = R.next();
    P.H.Hi = R.next();
    P.Difficulty = std::min(MinDifficulty + leadingZeros(R.next()), MaxDifficulty);
  }
  return Out;
}

} // namespace proofofwork
