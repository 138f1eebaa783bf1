// Seed 002 eqs. (2)-(4): a warp costs, for every basic block, the block's
// latency times the largest count among its threads (the warp runs a block as
// often as its busiest lane needs); a thread block costs the sum of its warps.
//
// Physical thread p runs logical thread D[p] (identity without D). Warps are
// 32 consecutive physical threads within a thread block and never span two;
// the last thread block, and the last warp of each, may be partial
// (docs/report.md). A warp is divergent when its threads' BBVs are not all
// identical, as in `divopt report`.
#pragma once
#include "model/BbvClasses.h"

#include <cstdint>
#include <vector>

namespace divopt {

inline constexpr uint32_t WarpLanes = 32;

struct ThreadBlockTimes {
  std::vector<double> Cycles;   // T_Tb per thread block, in launch order
  std::vector<uint32_t> Warps;  // warps per thread block
  uint64_t DivergentWarps = 0;

  uint64_t warps() const;
};

// Lat: lat[b] per basic block. D: nullptr or a permutation of the threads.
ThreadBlockTimes threadBlockTimes(const BbvClasses &Bbv, const std::vector<double> &Lat,
                                  const uint32_t *D, uint32_t BlockSize, unsigned Workers = 0);

// The same under several latency vectors at once (one result each, in
// order): a warp's busiest-lane counts depend only on its threads, so the
// model's plain and redirected prices share one pass over the warps.
std::vector<ThreadBlockTimes> threadBlockTimesUnder(const BbvClasses &Bbv,
                                                    const std::vector<const std::vector<double> *> &Lats,
                                                    const uint32_t *D, uint32_t BlockSize,
                                                    unsigned Workers = 0);

// Sum over a class's BBV of lat[b] x count: one thread's latency, seed 002
// eq. (11), and the cost of a warp of identical threads.
std::vector<double> classLatencies(const BbvClasses &Bbv, const std::vector<double> &Lat);

} // namespace divopt
