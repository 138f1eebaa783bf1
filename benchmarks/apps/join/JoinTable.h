// The join app's hash table: the build relation in an open-addressing table
// with linear probing, built on the host.
//
// Layout: 2^SlotBits slots of 8 bytes (2^24 slots, 128 MiB, at the default
// size: far more than the GPU's L2, so probes read DRAM). A slot is a build
// row, its key then its payload (two uint32), or empty: key EmptyKey, which
// no build or probe key equals (JoinInput.h).
//
// Hash: a key's home slot is the top SlotBits bits of key * 0x9E3779B1 mod
// 2^32 (multiplicative hashing with Knuth's constant, 2^32 / golden ratio).
// A row sits at the first slot from its home, going up and wrapping from the
// last slot to slot 0, that was empty when it was inserted: every slot from
// its home to it is occupied, so a probe that walks from the home to the
// first empty slot meets every row of its key. Duplicates are not chained:
// each row of a key takes its own slot in the run that starts at the key's
// home, so a key with m rows costs at least m + 1 slot reads to probe, and
// the rows of other keys homed inside that run are pushed past its end.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace join {

#if defined(__CUDACC__)
#define JOIN_HD __host__ __device__
#else
#define JOIN_HD
#endif

constexpr uint32_t EmptyKey = UINT32_MAX;

// Aligned to 8 bytes: a slot is one 64-bit load.
struct alignas(8) Row {
  uint32_t Key, Payload;
};

// SlotBits in [1, 32].
JOIN_HD inline uint32_t homeSlot(uint32_t Key, uint32_t SlotBits) {
  return (Key * 0x9E3779B1u) >> (32 - SlotBits);
}

// The table that inserting Rows one by one in the order of their home slots
// (rows with one home in row order) gives. Inserting in row order instead
// would walk a hot key's whole run once per duplicate; in home order each
// row's slot is the previous row's plus one or its own home, whichever is
// larger, so one counting sort and one sweep build the table. Rows.size()
// must be below 2^SlotBits.
inline std::vector<Row> buildTable(const std::vector<Row> &Rows, uint32_t SlotBits) {
  const uint32_t Slots = 1u << SlotBits;
  // Counting sort of the rows by home slot, stable.
  std::vector<uint32_t> HomeStart(size_t(Slots) + 1, 0);
  for (const Row &R : Rows)
    ++HomeStart[homeSlot(R.Key, SlotBits) + 1];
  for (uint32_t S = 0; S < Slots; ++S)
    HomeStart[S + 1] += HomeStart[S];
  std::vector<uint32_t> ByHome(Rows.size());
  {
    std::vector<uint32_t> Fill(HomeStart.begin(), HomeStart.end() - 1);
    for (uint32_t I = 0; I < Rows.size(); ++I)
      ByHome[Fill[homeSlot(Rows[I].Key, SlotBits)]++] = I;
  }
  std::vector<Row> Table(Slots, Row{EmptyKey, 0});
  uint64_t Next = 0; // the first slot not yet taken by the sweep, maybe past the end
  size_t Placed = 0;
  for (; Placed < ByHome.size(); ++Placed) {
    const Row &R = Rows[ByHome[Placed]];
    const uint64_t At = std::max<uint64_t>(homeSlot(R.Key, SlotBits), Next);
    if (At == Slots)
      break;
    Table[At] = R;
    Next = At + 1;
  }
  // The run that reaches the last slot goes on from slot 0: the rows left
  // take the first empty slots there, in order.
  uint32_t Wrapped = 0;
  for (; Placed < ByHome.size(); ++Placed) {
    while (Table[Wrapped].Key != EmptyKey)
      ++Wrapped;
    Table[Wrapped++] = Rows[ByHome[Placed]];
  }
  return Table;
}

} // namespace join
