// The metrics of one launch under one thread order: the prior metric of
// seed 002 Table IV that BBVs determine (divergent warps) and the two of
// section IV-B (BBV-weighted, BBV-weighted-scheduled), in cycles.
#pragma once
#include "model/BbvClasses.h"
#include "model/RedirectionPrice.h"
#include "model/ThreadBlockTimes.h"

#include <cstdint>
#include <vector>

namespace divopt {

struct Machine {
  uint32_t SMs = 132;      // H100 SXM / H200
  uint32_t Occupancy = 1;  // resident thread blocks per SM
  uint32_t slots() const { return SMs * Occupancy; }
};

struct LaunchMetrics {
  uint64_t Warps = 0;
  uint64_t DivergentWarps = 0;
  double BbvWeighted = 0;          // eq. (5): sum of T_Tb / #SM
  double BbvWeightedScheduled = 0; // finish of the last thread block (ScheduledMetric.h)
};

// (before - after) / before per metric: the share a regrouping removes;
// negative when it makes things worse, 0 when before is 0.
double improvement(double Before, double After);

struct Improvement {
  double DivergentWarps = 0;
  double BbvWeighted = 0;
  double BbvWeightedScheduled = 0;
};
Improvement improvement(const LaunchMetrics &Before, const LaunchMetrics &After);

LaunchMetrics launchMetrics(const ThreadBlockTimes &Times, const Machine &M);

// The metrics of running logical thread D[p] at physical position p
// (D nullptr: the launch as it is), without and with the price of the
// redirection that regrouping needs.
struct Evaluation {
  LaunchMetrics Plain;
  LaunchMetrics Redirected;
};
Evaluation evaluate(const BbvClasses &Bbv, const std::vector<double> &Lat, const uint32_t *D,
                    uint32_t BlockSize, const Machine &M, const RedirectionPrice &Price,
                    unsigned Workers = 0);

} // namespace divopt
