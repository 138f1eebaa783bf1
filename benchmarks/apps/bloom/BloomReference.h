// CPU reference for the bloom app. It shares the hash (there is no other
// definition of it) but not the kernel's probe: it computes each of a key's
// 8 positions directly as (Lo + i Step) mod 2^LogBits in 64-bit arithmetic,
// reads the filter as bytes (bit B is bit B mod 8 of byte B / 8, the same
// bit on a little-endian host), tests all 8 without an early exit and
// hashes the positions of the passing keys after collecting them. It also
// checks the filter's build: every member key (told by inverting the key
// numbering, BloomInput.h) must pass, since a Bloom filter has no false
// negatives. Counts and position hashes must equal the kernel's.
#pragma once

#include "../common/ParallelFor.h"
#include "BloomInput.h"
#include "BloomProbe.h"

#include <cstdint>
#include <vector>

namespace bloom {

static_assert(sizeof(Verdict) == 8, "a verdict is two 32-bit words, no padding");
// Reading the words as bytes finds bit B at byte B / 8 on little-endian hosts only.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the reference reads the filter as bytes");

// Whether the filter has all of Key's bits set.
inline bool passesAllBits(const Filter &F, uint64_t Key) {
  const uint8_t *Bytes = reinterpret_cast<const uint8_t *>(F.Words.data());
  const uint64_t H = keyHash(Key), Size = uint64_t(1) << F.LogBits;
  const uint64_t Lo = firstPosition(H), Step = positionStep(H);
  bool All = true;
  for (uint64_t I = 0; I < HashCount; ++I) {
    const uint64_t B = (Lo + I * Step) % Size;
    All &= ((Bytes[B / 8] >> (B % 8)) & 1) != 0;
  }
  return All;
}

struct Reference {
  std::vector<Verdict> Verdicts;
  // The first member key (its index in Keys) that fails the filter, or
  // UINT64_MAX when every member passes.
  uint64_t MissedMember = UINT64_MAX;
};

inline Reference referenceVerdicts(const Input &In) {
  Reference R;
  R.Verdicts.resize(In.queries());
  std::vector<uint64_t> MissedIn(In.queries(), UINT64_MAX);
  bench::parallelFor(In.queries(), [&](size_t Begin, size_t End) {
    std::vector<uint32_t> PassedAt;
    for (size_t Q = Begin; Q < End; ++Q) {
      PassedAt.clear();
      for (uint32_t E = In.QueryStart[Q]; E < In.QueryStart[Q + 1]; ++E) {
        const bool Passes = passesAllBits(In.Bloom, In.Keys[E]);
        if (Passes)
          PassedAt.push_back(E - In.QueryStart[Q]);
        else if (In.KeyOf.numberOf(In.Keys[E]) < In.Bloom.Members && MissedIn[Q] == UINT64_MAX)
          MissedIn[Q] = E;
      }
      uint32_t Hash = FnvOffset;
      for (uint32_t At : PassedAt)
        Hash = (Hash ^ At) * FnvPrime;
      R.Verdicts[Q] = Verdict{uint32_t(PassedAt.size()), Hash};
    }
  });
  for (uint64_t Missed : MissedIn)
    if (Missed != UINT64_MAX) {
      R.MissedMember = Missed;
      break;
    }
  return R;
}

} // namespace bloom
