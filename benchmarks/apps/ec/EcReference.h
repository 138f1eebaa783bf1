// CPU reference for the error-correction app: the same spectral-alignment
// rules as EcCorrect.h, written over std::vector and a sorted list of the
// genome's k-mers (not the GPU's hash table), so it checks the table and the
// kernel's index arithmetic.
#pragma once

#include "../common/ParallelFor.h"
#include "EcCorrect.h"
#include "EcInput.h"
#include "EcSpectrum.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ec {

struct Corrected {
  std::vector<uint8_t> Bases;   // same layout as Input::Bases
  std::vector<uint32_t> Status; // corrections | Uncorrectable, per read
};

// The genome's k-mers, sorted, with a directory over their top DirectoryBits
// bits so that a lookup touches two places in memory.
class KmerSet {
public:
  explicit KmerSet(const std::vector<uint8_t> &Genome) {
    for (size_t I = 0; I + K <= Genome.size(); ++I) {
      uint64_t Code = 0;
      for (uint32_t J = 0; J < K; ++J)
        Code = Code * 4 + Genome[I + J];
      Sorted.push_back(Code);
    }
    std::sort(Sorted.begin(), Sorted.end());
    Directory.resize((size_t(1) << DirectoryBits) + 1);
    size_t At = 0;
    for (size_t B = 0; B < Directory.size(); ++B) {
      while (At < Sorted.size() && (Sorted[At] >> Shift) < B)
        ++At;
      Directory[B] = static_cast<uint32_t>(At);
    }
  }
  bool contains(uint64_t Code) const {
    const uint64_t B = Code >> Shift;
    return std::binary_search(Sorted.begin() + Directory[B], Sorted.begin() + Directory[B + 1],
                              Code);
  }

private:
  static constexpr uint32_t DirectoryBits = 24, Shift = 2 * K - DirectoryBits;
  std::vector<uint64_t> Sorted;
  std::vector<uint32_t> Directory; // first index of each top-bits value
};

inline Corrected referenceCorrect(const Input &In) {
  const KmerSet Solid(In.Genome);

  Corrected Out;
  Out.Bases = In.Bases;
  Out.Status.resize(In.Lengths.size());
  bench::parallelFor(In.Lengths.size(), [&](size_t Begin, size_t End) {
    for (size_t R = Begin; R < End; ++R) {
      uint8_t *Read = &Out.Bases[In.Offsets[R]];
      const int L = static_cast<int>(In.Lengths[R]), Kk = static_cast<int>(K);
      auto solidAt = [&](int S) {
        uint64_t Code = 0;
        for (int J = 0; J < Kk; ++J)
          Code = Code * 4 + Read[S + J];
        return Solid.contains(Code);
      };
      uint32_t Status = 0;
      for (int S = 0; S + Kk <= L && !(Status & Uncorrectable); ++S) {
        if (solidAt(S))
          continue;
        bool Fixed = false;
        if (Status < MaxCorrections)
          for (int Pos = S + Kk - 1; Pos >= S && !Fixed; --Pos) {
            const uint8_t Orig = Read[Pos];
            for (int B = 1; B <= 3 && !Fixed; ++B) {
              Read[Pos] = static_cast<uint8_t>((Orig + B) % 4);
              Fixed = true;
              for (int T = std::max(0, Pos - Kk + 1); T <= std::min(Pos, L - Kk); ++T)
                Fixed = Fixed && solidAt(T);
            }
            if (!Fixed)
              Read[Pos] = Orig;
          }
        Status = Fixed ? Status + 1 : Status | Uncorrectable;
      }
      Out.Status[R] = Status;
    }
  });
  return Out;
}

} // namespace ec
