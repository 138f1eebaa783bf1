// The per-thread work of the join app, shared by its kernels and the host
// test of the table: probe one key in the build's hash table (JoinTable.h).
// The walk starts at the key's home slot and reads slot after slot (wrapping
// at the end) up to the first empty one, counting the rows of the key and
// summing their payloads (mod 2^32); the table has no per-key chains and no
// early exit, since any slot before the empty one may hold another row of
// the key. Threads diverge on the walk's length: 1 slot for an absent key
// whose home is empty, m + 1 or more for a key with m rows, up to about a
// thousand where a hot key's run has grown a long cluster.
#pragma once

#include "JoinTable.h"

#include <cstdint>

namespace join {

// A probe key's matches: the number of build rows with the key and the sum of
// their payloads, mod 2^32 (the order of the rows does not matter).
struct Match {
  uint32_t Count, PayloadSum;
};

// Always inlined: each kernel then holds the probe loop itself, where
// divopt's profile counts it (a call is one instruction to it).
JOIN_HD inline __attribute__((always_inline)) Match probe(const Row *Table, uint32_t SlotBits,
                                                          uint32_t Key) {
  const uint32_t Mask = (1u << SlotBits) - 1;
  Match M{0, 0};
  for (uint32_t S = homeSlot(Key, SlotBits);; S = (S + 1) & Mask) {
    const Row R = Table[S];
    if (R.Key == EmptyKey)
      break;
    if (R.Key == Key) {
      ++M.Count;
      M.PayloadSum += R.Payload;
    }
  }
  return M;
}

} // namespace join
