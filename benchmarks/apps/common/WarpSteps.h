// What a warp of 32 consecutive items costs when each item's work is its
// own loop: the work of its busiest item. The apps' --check statistics sum
// it over the warps to say how much of their lanes the work keeps busy
// (all work over 32 times this), in item order and in other orders.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace bench {

// The sum over warps of 32 consecutive entries of Work of their maxima.
inline uint64_t warpSteps(const std::vector<uint32_t> &Work) {
  uint64_t Sum = 0;
  for (size_t W = 0; W < Work.size(); W += 32)
    Sum += *std::max_element(Work.begin() + W, Work.begin() + std::min(Work.size(), W + 32));
  return Sum;
}

} // namespace bench
