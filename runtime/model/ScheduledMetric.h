// BBV-weighted-scheduled (seed 002, section IV-B2): thread blocks, in launch
// order, go to whichever slot frees first (dynamic round-robin, Fig. 4), ties
// to the lowest slot; a slot is one resident thread block, so an SM with
// occupancy O has O slots. The estimate is when the last block finishes.
#pragma once
#include <cstdint>
#include <vector>

namespace divopt {

struct BlockPlacement {
  uint32_t Slot = 0;
  double Start = 0;
  double End = 0;
};

// One placement per thread block, in launch order. Slots must be positive.
std::vector<BlockPlacement> scheduleThreadBlocks(const std::vector<double> &Cycles,
                                                 uint32_t Slots);

// The finish time of the last thread block (0 for none).
double bbvWeightedScheduled(const std::vector<double> &Cycles, uint32_t Slots);

} // namespace divopt
