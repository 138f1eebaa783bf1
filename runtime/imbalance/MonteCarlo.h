// The Monte Carlo check of the model (seed 001 section IV): draw groups of n
// units of work from W with MT19937 and average X = n max / sum, with the
// model's convention for all-zero groups (X = 1).
//
// The groups are split into fixed chunks, each with its own generator seeded
// from (Seed, chunk index), and the chunks' results are combined in chunk
// order: the result depends on Seed alone, not on how many threads ran.
#pragma once
#include "imbalance/Histogram.h"
#include "imbalance/WorkDistribution.h"

#include <cstdint>
#include <vector>

namespace divopt::imbalance {

struct SimulationResult {
  uint64_t Groups = 0;
  double Mean = 0;
  double Variance = 0;
  uint64_t ZeroSumGroups = 0;
  std::vector<uint64_t> Histogram; // per bin, when bins were given

  double standardError() const;
};

inline constexpr uint64_t SimulationChunkGroups = 1 << 16;

// Threads = 0: one per hardware thread. Throws std::invalid_argument for
// N < 1 or Groups < 1.
SimulationResult simulateImbalance(const WorkDistribution &W, unsigned N, uint64_t Groups,
                                   uint64_t Seed, const Bins *HistogramBins = nullptr,
                                   unsigned Threads = 0);

} // namespace divopt::imbalance
