#include "model/LaunchMetrics.h"
#include "model/ScheduledMetric.h"

#include <numeric>
#include <stdexcept>
#include <string>

namespace divopt {

double improvement(double Before, double After) {
  return Before > 0 ? (Before - After) / Before : 0.0;
}

Improvement improvement(const LaunchMetrics &Before, const LaunchMetrics &After) {
  return {improvement(double(Before.DivergentWarps), double(After.DivergentWarps)),
          improvement(Before.BbvWeighted, After.BbvWeighted),
          improvement(Before.BbvWeightedScheduled, After.BbvWeightedScheduled)};
}

LaunchMetrics launchMetrics(const ThreadBlockTimes &Times, const Machine &M) {
  if (M.SMs == 0 || M.Occupancy == 0)
    throw std::invalid_argument("SMs and occupancy must be positive");
  LaunchMetrics R;
  R.Warps = Times.warps();
  R.DivergentWarps = Times.DivergentWarps;
  R.BbvWeighted = std::accumulate(Times.Cycles.begin(), Times.Cycles.end(), 0.0) / M.SMs;
  R.BbvWeightedScheduled = bbvWeightedScheduled(Times.Cycles, M.slots());
  return R;
}

Evaluation evaluate(const BbvClasses &Bbv, const std::vector<double> &Lat, const uint32_t *D,
                    uint32_t BlockSize, const Machine &M, const RedirectionPrice &Price,
                    unsigned Workers) {
  // Scattered accesses make blocks dearer (eq. (2) with lat + PerBlock); the
  // load of D adds the same to every warp. One pass prices both.
  std::vector<double> Dearer;
  if (!Price.PerBlock.empty()) {
    if (Price.PerBlock.size() != Lat.size())
      throw std::invalid_argument("redirection price: " + std::to_string(Price.PerBlock.size()) +
                                  " block entries for " + std::to_string(Lat.size()) +
                                  " basic blocks");
    Dearer = Lat;
    for (size_t Bb = 0; Bb < Dearer.size(); ++Bb)
      Dearer[Bb] += Price.PerBlock[Bb];
  }
  std::vector<ThreadBlockTimes> Under =
      Dearer.empty() ? threadBlockTimesUnder(Bbv, {&Lat}, D, BlockSize, Workers)
                     : threadBlockTimesUnder(Bbv, {&Lat, &Dearer}, D, BlockSize, Workers);
  Evaluation R;
  R.Plain = launchMetrics(Under[0], M);
  ThreadBlockTimes &Times = Under.back();
  for (size_t G = 0; G < Times.Cycles.size(); ++G)
    Times.Cycles[G] += Times.Warps[G] * Price.PerWarp;
  R.Redirected = launchMetrics(Times, M);
  return R;
}

} // namespace divopt
