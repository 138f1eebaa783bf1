// CPU reference for the primes app, written from the definition rather than
// from the kernel's loop: the primes below 2^16 by the sieve of
// Eratosthenes, then division by each prime up to the square root of what is
// left (a 32-bit number has at most one prime factor above 2^16).
#pragma once

#include "../common/ParallelFor.h"

#include <cstdint>
#include <vector>

namespace primes {

// Prime factors with multiplicity of every number, then the largest of each,
// as the kernels write them.
inline std::vector<uint32_t> referenceFactors(const std::vector<uint32_t> &Numbers) {
  std::vector<bool> Composite(1 << 16);
  std::vector<uint32_t> Primes;
  for (uint32_t P = 2; P < Composite.size(); ++P) {
    if (Composite[P])
      continue;
    Primes.push_back(P);
    for (uint32_t Multiple = P * P; Multiple < Composite.size(); Multiple += P)
      Composite[Multiple] = true;
  }
  const size_t N = Numbers.size();
  std::vector<uint32_t> Out(2 * N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      uint64_t Rest = Numbers[I];
      uint32_t Count = 0, Largest = 0;
      for (uint32_t P : Primes) {
        if (uint64_t(P) * P > Rest)
          break;
        for (; Rest % P == 0; Rest /= P) {
          ++Count;
          Largest = P;
        }
      }
      if (Rest > 1) {
        ++Count;
        Largest = uint32_t(Rest);
      }
      Out[I] = Count;
      Out[N + I] = Largest;
    }
  });
  return Out;
}

} // namespace primes
