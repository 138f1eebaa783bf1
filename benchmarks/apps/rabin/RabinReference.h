// CPU reference for the rabin app: the Miller-Rabin test written from its
// definition, without Montgomery's form: every product is an unsigned
// __int128 reduced by the remainder operator, so the kernel's REDC,
// inverse and R^2 are checked against plain modular arithmetic. The bases
// are tried in order, skipping one that n divides, as the kernel does, and
// the exponentiation runs left to right from the top bit of d, so the
// count of modular multiplications it returns is the kernel's work per
// number (besides a few fixed ones: the residues of R^2 and of the base).
#pragma once

#include "../common/ParallelFor.h"

#include <cstdint>
#include <vector>

namespace rabin {

struct Verdict {
  uint32_t Code;            // 1 if prime, else 1 + the number of the witness base
  uint32_t Multiplications; // modular products of the exponentiations and squarings
};

inline uint64_t mulMod(uint64_t A, uint64_t B, uint64_t N) {
  return uint64_t((unsigned __int128)A * B % N);
}

inline Verdict referenceVerdict(uint64_t N) {
  const uint64_t Bases[] = {2, 325, 9375, 28178, 450775, 9780504, 1795265022};
  uint64_t D = N - 1;
  uint32_t S = 0;
  for (; D % 2 == 0; D /= 2)
    ++S;
  int Top = 63;
  while (!((D >> Top) & 1))
    --Top;
  Verdict V{1, 0};
  for (uint32_t I = 0; I < 7; ++I) {
    const uint64_t A = Bases[I] % N;
    if (A == 0)
      continue;
    uint64_t X = A;
    for (int Bit = Top - 1; Bit >= 0; --Bit) {
      X = mulMod(X, X, N);
      ++V.Multiplications;
      if ((D >> Bit) & 1) {
        X = mulMod(X, A, N);
        ++V.Multiplications;
      }
    }
    bool Liar = X == 1 || X == N - 1;
    for (uint32_t R = 1; R < S && !Liar; ++R) {
      X = mulMod(X, X, N);
      ++V.Multiplications;
      Liar = X == N - 1;
    }
    if (!Liar) {
      V.Code = I + 2;
      return V;
    }
  }
  return V;
}

inline std::vector<Verdict> referenceVerdicts(const std::vector<uint64_t> &Numbers) {
  std::vector<Verdict> Out(Numbers.size());
  bench::parallelFor(Numbers.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      Out[I] = referenceVerdict(Numbers[I]);
  });
  return Out;
}

} // namespace rabin
