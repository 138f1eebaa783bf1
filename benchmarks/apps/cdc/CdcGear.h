// The gear table of the cdc app: 256 random 64-bit values, one per byte
// value, drawn from the seed (stream 1 of bench::itemRng; the buffer's
// layout is stream 0, its regions 2 on).
//
// In a run of one byte value b the hash settles after 64 bytes to
// Gear[b] (2^64 - 1) = -Gear[b] (mod 2^64) and stays there. An entry whose
// -Gear[b] has the mask's bits clear would cut at every byte of such a run,
// so it is drawn again (a table of 256 random entries has one with a chance
// of about 40%): runs (zero pages, padding, sparse files' holes) then
// give maximal chunks, as they do with the fixed tables of real chunkers.
#pragma once

#include "../common/Random.h"
#include "CdcScan.h"

#include <cstdint>
#include <vector>

namespace cdc {

inline std::vector<uint64_t> generateGear(uint64_t Seed) {
  bench::Rng R = bench::itemRng(Seed, 1);
  std::vector<uint64_t> Gear(256);
  for (uint64_t &G : Gear)
    do
      G = R.next();
    while (((0 - G) & Mask) == 0);
  return Gear;
}

} // namespace cdc
