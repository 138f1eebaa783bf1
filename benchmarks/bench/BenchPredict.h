// The model's predictions for one app, computed in process from its profile
// with the same library code `divopt analyze` and optimize mode use
// (latency/BlockPricing, model/RedirectionPrice, regroup/ChooseRegrouping):
// divergent warps and branches of the original launch and, per algorithm,
// the predicted improvement of BBV-weighted and BBV-weighted-scheduled.
#pragma once
#include "BenchResults.h"

#include <cstdint>
#include <string>

namespace divopt::bench {

struct PredictionInputs {
  std::string Profile;    // DIVOPT_MODE=profile output of the app
  std::string Kernel;     // the timed kernel's device-side name
  uint64_t Threads = 0;   // the timed launch's threads (to tell launches apart)
  unsigned ComputeCapability = 90; // picks the built-in latency table
  uint32_t SMs = 132;
  // Resident blocks per SM as the runtime's occupancy calculator found them
  // (from its DIVOPT_VERBOSE line); 0: sm_90's thread limit, as `divopt analyze`.
  uint32_t Occupancy = 0;
  std::string OccupancySource;
  double MinGain = 0.05; // DIVOPT_MIN_GAIN's default: what auto would pick
};

// Throws std::runtime_error (naming the profile) when it cannot be read or
// holds no launch of the kernel with that many threads.
Prediction predictFromProfile(const PredictionInputs &In);

} // namespace divopt::bench
