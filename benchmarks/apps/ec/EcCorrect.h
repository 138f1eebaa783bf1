// The per-read work of the error-correction kernel, after CUDA-EC's spectral
// alignment: walk the read's k-mers; at the first weak one (not in the
// spectrum) try the three other bases at each of its positions, last first,
// and keep the first substitution that makes every k-mer covering that
// position solid; then walk on. A read whose weak k-mer cannot be fixed, or
// that needs more than MaxCorrections fixes, is marked uncorrectable and left
// as corrected so far. Error-free reads cost one lookup per k-mer; each error
// costs up to 3 * K trial substitutions with up to K lookups each, so the work
// follows the read's length and its errors.
#pragma once

#include "EcSpectrum.h"

#include <cstdint>

namespace ec {

constexpr uint32_t MaxCorrections = 4;
constexpr uint32_t Uncorrectable = 0x80000000u;

// Whether every k-mer of Read (length L) covering position Pos is solid. The
// k-mer at First (known to cover Pos) is looked up first: a wrong trial
// substitution usually leaves it weak, which ends the check early.
EC_HD inline bool coveringKmersSolid(const uint8_t *Read, uint32_t L, uint32_t Pos, uint32_t First,
                                     const uint64_t *Table) {
  if (!isSolid(Table, packKmer(Read + First)))
    return false;
  const uint32_t Lo = Pos + 1 >= K ? Pos + 1 - K : 0;
  const uint32_t Hi = Pos < L - K ? Pos : L - K;
  for (uint32_t S = Lo; S <= Hi; ++S)
    if (S != First && !isSolid(Table, packKmer(Read + S)))
      return false;
  return true;
}

// Tries substitutions in the weak k-mer starting at S; true if one was kept.
EC_HD inline bool fixWeakKmer(uint8_t *Read, uint32_t L, uint32_t S, const uint64_t *Table) {
  for (uint32_t Pos = S + K; Pos-- > S;) {
    const uint8_t Orig = Read[Pos];
    for (uint32_t B = 1; B <= 3; ++B) {
      Read[Pos] = static_cast<uint8_t>((Orig + B) & 3);
      if (coveringKmersSolid(Read, L, Pos, S, Table))
        return true;
    }
    Read[Pos] = Orig;
  }
  return false;
}

// Copies the read In (length L) to Out and corrects Out in place. Returns the
// number of corrections, with Uncorrectable set if the read could not be
// fixed.
EC_HD inline uint32_t correctRead(const uint8_t *In, uint8_t *Out, uint32_t L,
                                  const uint64_t *Table) {
  for (uint32_t I = 0; I < L; ++I)
    Out[I] = In[I];
  uint32_t Corrections = 0;
  uint64_t Code = L >= K ? packKmer(Out) : 0;
  for (uint32_t S = 0; S + K <= L; ++S) {
    if (S > 0)
      Code = ((Code << 2) | Out[S + K - 1]) & KmerMask;
    if (isSolid(Table, Code))
      continue;
    if (Corrections == MaxCorrections || !fixWeakKmer(Out, L, S, Table))
      return Corrections | Uncorrectable;
    ++Corrections;
    Code = packKmer(Out + S);
  }
  return Corrections;
}

} // namespace ec
