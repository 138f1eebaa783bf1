#include "model/ScheduledMetric.h"

#include <algorithm>
#include <queue>
#include <stdexcept>
#include <utility>

namespace divopt {

std::vector<BlockPlacement> scheduleThreadBlocks(const std::vector<double> &Cycles,
                                                 uint32_t Slots) {
  if (Slots == 0)
    throw std::invalid_argument("the schedule needs at least one slot (SMs x occupancy)");
  // (free at, slot): the smallest pair is the earliest free slot, lowest first on ties.
  using Free = std::pair<double, uint32_t>;
  std::priority_queue<Free, std::vector<Free>, std::greater<Free>> Slot;
  for (uint32_t S = 0; S < std::min<uint64_t>(Slots, Cycles.size()); ++S)
    Slot.push({0.0, S});
  std::vector<BlockPlacement> R;
  R.reserve(Cycles.size());
  for (double C : Cycles) {
    auto [At, S] = Slot.top();
    Slot.pop();
    R.push_back({S, At, At + C});
    Slot.push({At + C, S});
  }
  return R;
}

double bbvWeightedScheduled(const std::vector<double> &Cycles, uint32_t Slots) {
  double Last = 0;
  for (const BlockPlacement &P : scheduleThreadBlocks(Cycles, Slots))
    Last = std::max(Last, P.End);
  return Last;
}

} // namespace divopt
