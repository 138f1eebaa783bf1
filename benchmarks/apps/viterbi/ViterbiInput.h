// The input of the viterbi app: a batch of observation sequences to decode,
// as a keyword spotter decodes a batch of utterances, a tagger a batch of
// sentences or a gene finder a batch of contigs: lengths lognormal (median
// 32, sigma 1, rounded and clamped to [8, 2000]: mean about 53, most short, a
// long tail), each sequence sampled from the model itself (ViterbiModel.h), a
// state path and a symbol per state, so the best path follows segments.
//
// Sequences are stored CSR-like: sequence i's symbols are First[i] to
// First[i + 1] - 1 of one byte array. Every sequence draws from its own
// stream, bench::itemRng(Seed, i): its length (the first draws, through the
// lognormal), then its states and symbols, each a categorical choice made by
// one byte of a 64-bit draw (8 choices a draw) looked up in a table of 256
// entries per row built from the model's counts. Generation runs in
// parallel and does not depend on the number of host threads.
// Offsets are 32-bit: at most 2^21 sequences of at most 2000 symbols.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "ViterbiModel.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace viterbi {

constexpr double LengthMedian = 32, LengthSigma = 1.0;
constexpr uint32_t MinLength = 8, MaxLength = 2000;
constexpr uint64_t MaxSequences = 1ull << 21; // MaxSequences * MaxLength < 2^32

struct Batch {
  std::vector<uint32_t> First; // sequences + 1 offsets into Symbols
  std::vector<uint8_t> Symbols;
  uint32_t sequences() const { return uint32_t(First.size() - 1); }
  uint32_t length(uint32_t I) const { return First[I + 1] - First[I]; }
};

namespace detail {

// Pick[r][b]: the entry of row r of a table of the model's counts (Rows rows
// of Size, row after row) that a uniform byte b picks, entry k taking
// Count[r][k] consecutive bytes.
template <uint32_t Rows, uint32_t Size> struct Sampler {
  uint8_t Pick[Rows][Quantum];
  explicit Sampler(const uint16_t *Counts) {
    for (uint32_t R = 0; R < Rows; ++R)
      for (uint32_t K = 0, Byte = 0; K < Size; ++K)
        for (uint32_t C = 0; C < Counts[R * Size + K]; ++C)
          Pick[R][Byte++] = uint8_t(K);
  }
};

inline uint32_t drawLength(bench::Rng &R) {
  const double L = std::round(R.lognormal(std::log(LengthMedian), LengthSigma));
  return uint32_t(std::clamp(L, double(MinLength), double(MaxLength)));
}

// Hands out a stream's draws one byte at a time.
class Bytes {
public:
  explicit Bytes(bench::Rng &Stream) : R(Stream) {}
  uint8_t next() {
    if (Left == 0) {
      Word = R.next();
      Left = 8;
    }
    --Left;
    const uint8_t B = uint8_t(Word);
    Word >>= 8;
    return B;
  }

private:
  bench::Rng &R;
  uint64_t Word = 0;
  uint32_t Left = 0;
};

} // namespace detail

inline Batch generateBatch(const Model &M, uint32_t N, uint64_t Seed) {
  const detail::Sampler<1, States> FirstState(M.Start);
  const detail::Sampler<States, States> NextState(&M.Transition[0][0]);
  const detail::Sampler<States, Symbols> Emitted(&M.Emission[0][0]);
  Batch B;
  B.First.assign(N + 1, 0);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng R = bench::itemRng(Seed, I);
      B.First[I + 1] = detail::drawLength(R);
    }
  });
  for (uint32_t I = 0; I < N; ++I)
    B.First[I + 1] += B.First[I];
  B.Symbols.resize(B.First[N]);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng R = bench::itemRng(Seed, I);
      detail::drawLength(R);
      detail::Bytes Draw(R);
      uint8_t *Out = B.Symbols.data() + B.First[I];
      uint32_t State = FirstState.Pick[0][Draw.next()];
      for (uint32_t K = 0, Length = B.First[I + 1] - B.First[I]; K < Length; ++K) {
        if (K > 0)
          State = NextState.Pick[State][Draw.next()];
        Out[K] = Emitted.Pick[State][Draw.next()];
      }
    }
  });
  return B;
}

} // namespace viterbi
