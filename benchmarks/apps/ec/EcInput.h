// The input of the error-correction app: short reads sampled from a generated
// genome with sequencing errors. Read lengths are lognormal around 100 bases
// (36 to 250); each read has a mean Phred quality from one of three classes
// (good reads Q35-40, fair Q22-30, poor Q14-20) that sets its per-base error
// rate, rising from 0.5x to 1.5x of the mean along the read as on real
// sequencers. Bases are 2-bit codes (A, C, G, T = 0..3), one per byte.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace ec {

constexpr uint32_t GenomeLength = 1u << 23;
constexpr double LengthMedian = 100, LengthSigma = 0.3;
constexpr uint32_t MinLength = 36, MaxLength = 250;

struct Input {
  std::vector<uint8_t> Genome;
  std::vector<uint8_t> Bases;     // all reads, concatenated
  std::vector<uint32_t> Offsets;  // start of read i in Bases
  std::vector<uint32_t> Lengths;  // length of read i
  std::vector<uint8_t> Quality;   // mean Phred quality of read i
  std::vector<uint32_t> Errors;   // errors put into read i (statistics only)
};

// Per-base error probability of Phred quality Q.
inline double errorRate(uint32_t Q) { return std::pow(10.0, -double(Q) / 10.0); }

// An independent, reproducible stream for read I of seed Seed.
inline uint64_t readSeed(uint64_t Seed, uint64_t I) {
  return bench::Rng(Seed ^ (I * 0xd1b54a32d192ed03ULL)).next();
}

inline Input generate(uint64_t Reads, uint64_t Seed) {
  Input In;
  bench::Rng R(Seed);
  In.Genome.resize(GenomeLength);
  for (uint32_t I = 0; I < GenomeLength; I += 32) {
    uint64_t Bits = R.next();
    for (uint32_t J = 0; J < 32 && I + J < GenomeLength; ++J)
      In.Genome[I + J] = static_cast<uint8_t>((Bits >> (2 * J)) & 3);
  }
  In.Offsets.resize(Reads);
  In.Lengths.resize(Reads);
  In.Quality.resize(Reads);
  In.Errors.resize(Reads);
  uint64_t Total = 0;
  for (uint64_t I = 0; I < Reads; ++I) {
    double L = std::round(R.lognormal(std::log(LengthMedian), LengthSigma));
    In.Lengths[I] = static_cast<uint32_t>(std::clamp(L, double(MinLength), double(MaxLength)));
    In.Offsets[I] = static_cast<uint32_t>(Total);
    Total += In.Lengths[I];
    double Class = R.uniform01();
    In.Quality[I] = static_cast<uint8_t>(Class < 0.65   ? 35 + R.below(6)
                                         : Class < 0.90 ? 22 + R.below(9)
                                                        : 14 + R.below(7));
  }
  In.Bases.resize(Total);
  bench::parallelFor(Reads, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng Rr(readSeed(Seed, I));
      const uint32_t L = In.Lengths[I];
      const uint32_t Start = Rr.below(GenomeLength - L + 1);
      const double P = errorRate(In.Quality[I]);
      uint8_t *Out = &In.Bases[In.Offsets[I]];
      for (uint32_t J = 0; J < L; ++J) {
        Out[J] = In.Genome[Start + J];
        if (Rr.uniform01() < P * (0.5 + double(J) / L)) {
          Out[J] = static_cast<uint8_t>((Out[J] + 1 + Rr.below(3)) & 3);
          ++In.Errors[I];
        }
      }
    }
  });
  return In;
}

} // namespace ec
