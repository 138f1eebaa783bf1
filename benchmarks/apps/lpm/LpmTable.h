// The lpm app's routing table: a synthetic IPv4 table of TablePrefixes
// routes (2^19, about the global BGP table of 2014), a default route among
// them, with the shape of the global BGP table plus a router's own internal
// routes, generated on the host from the seed.
//
// Lengths: exact counts from LengthPercent (every seed the same shape): 61%
// /24, 35% /16 to /23 (mostly /22 and /23), 0.4% /8 to /15 and 3.6% /25 to
// /32 (the router's customer subnets, links and loopbacks, which a global
// table filters out but an ISP's own routers carry).
//
// Placement, in order of length (shortest first), so that the address space
// is as clumpy as the real one:
// - Aggregates (/8 to /16) are the blocks that big and old networks own:
//   each at a uniformly random aligned place in the announced space (first
//   octets other than 0, 10, 127 and 224 to 255, which are never announced:
//   "this network", private, loopback, multicast and reserved), redrawn if
//   it overlaps an earlier aggregate, since a block has one owner. They cover
//   about 38% of the address space.
// - Longer prefixes are, with probability NestedShare, more-specifics of an
//   earlier prefix up to NestWindow bits shorter (deaggregation by the owner
//   or a customer's block inside its provider's): the parent is drawn
//   uniformly among those and the prefix placed uniformly inside it. The
//   window keeps the biggest aggregates sparse, as their owners announce few
//   more-specifics for their size. The other longer prefixes are
//   independent allocations, placed in a /16 drawn with weight w(/8) w(/16)
//   (both lognormal, sigma 2: regional registries hand out space block by
//   block, so a few /8s and /16s hold most of the table and many hold
//   little), uniformly inside it, and redrawn inside an aggregate.
// A prefix equal to an earlier one (same bits and length) is redrawn.
//
// Next hops: each prefix an adjacency drawn uniformly below NextHops, so a
// wrong match almost always shows in the result.
#pragma once

#include "../common/Random.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <map>
#include <unordered_set>
#include <vector>

namespace lpm {

constexpr uint32_t TablePrefixes = 1u << 19; // the default route and 2^19 - 1 others
constexpr uint32_t NextHops = 1u << 16;
constexpr uint32_t MinLength = 8, MaxAggregateLength = 16;
constexpr double NestedShare = 0.5;
constexpr uint32_t NestWindow = 8;
constexpr double OctetSigma = 2, BlockSigma = 2; // the lognormal weights of /8s and /16s
// The table's share of each length, in percent (0 for none), for lengths 0 to 32.
constexpr double LengthPercent[33] = {
    0,     0,     0,     0,     0,     0,     0,    0,    // /0 to /7: only the default route
    0.002, 0.002, 0.005, 0.012, 0.035, 0.065, 0.12, 0.2,  // /8 to /15
    1.35,  0.75,  1.25,  2.4,   3.9,   4.4,   11.3, 9.4,  // /16 to /23
    61.2,                                                 // /24
    0.6,   0.5,   0.4,   0.35,  0.35,  0.5,   0.1,  0.8}; // /25 to /32

// A route: the address with the bits past Length zero, and its next hop.
struct Prefix {
  uint32_t Bits, Length, NextHop;
};

inline uint32_t prefixMask(uint32_t Length) { return Length ? ~0u << (32 - Length) : 0u; }

inline bool announcedOctet(uint32_t Octet) {
  return Octet != 0 && Octet != 10 && Octet != 127 && Octet < 224;
}

namespace detail {

class TableGenerator {
public:
  explicit TableGenerator(bench::Rng &R) : R(R) {
    // Cumulative weights of the /16s, w(/8) w(/16); zero outside the
    // announced octets.
    BlockWeight.resize((size_t(1) << 16) + 1, 0.0);
    for (uint32_t Octet = 0; Octet < 256; ++Octet) {
      const double OctetWeight = announcedOctet(Octet) ? R.lognormal(0, OctetSigma) : 0;
      for (uint32_t Block = Octet << 8; Block < (Octet + 1) << 8; ++Block)
        BlockWeight[Block + 1] = BlockWeight[Block] + OctetWeight * R.lognormal(0, BlockSigma);
    }
  }

  std::vector<Prefix> generate() {
    std::vector<Prefix> Table{{0, 0, uint32_t(R.below(NextHops))}};
    Table.reserve(TablePrefixes);
    Seen.reserve(TablePrefixes);
    Seen.insert(key(0, 0));
    double Cumulative = 0, Total = 0;
    for (double P : LengthPercent)
      Total += P;
    const double Others = TablePrefixes - 1;
    uint64_t Placed = 0;
    for (uint32_t Length = MinLength; Length <= 32; ++Length) {
      // Exact counts: the rounded cumulative shares' differences.
      Cumulative += LengthPercent[Length];
      const uint64_t Upto = uint64_t(std::llround(Others * Cumulative / Total));
      // Parents for nesting: the prefixes NestWindow or fewer bits shorter,
      // a contiguous range since the table is in order of length.
      const size_t ParentsBegin = size_t(
          std::partition_point(Table.begin(), Table.end(),
                               [&](const Prefix &P) { return P.Length + NestWindow < Length; }) -
          Table.begin());
      const size_t ParentsEnd = Table.size();
      for (; Placed < Upto; ++Placed) {
        uint32_t Bits;
        do
          Bits = Length <= MaxAggregateLength ? aggregate(Length)
                                              : longer(Length, ParentsBegin, ParentsEnd, Table);
        while (!Seen.insert(key(Bits, Length)).second);
        if (Length <= MaxAggregateLength)
          Aggregates[Bits] = Bits | ~prefixMask(Length);
        Table.push_back({Bits, Length, uint32_t(R.below(NextHops))});
      }
    }
    return Table;
  }

private:
  static uint64_t key(uint32_t Bits, uint32_t Length) { return uint64_t(Bits) << 6 | Length; }

  // Whether [First, Last] overlaps an aggregate (they are disjoint, so only
  // the last one starting at or before Last can).
  bool overlapsAggregate(uint32_t First, uint32_t Last) const {
    auto After = Aggregates.upper_bound(Last);
    return After != Aggregates.begin() && std::prev(After)->second >= First;
  }

  uint32_t aggregate(uint32_t Length) {
    for (;;) {
      const uint32_t Bits = uint32_t(R.next()) & prefixMask(Length);
      if (announcedOctet(Bits >> 24) && !overlapsAggregate(Bits, Bits | ~prefixMask(Length)))
        return Bits;
    }
  }

  uint32_t longer(uint32_t Length, size_t ParentsBegin, size_t ParentsEnd,
                  const std::vector<Prefix> &Table) {
    if (ParentsEnd > ParentsBegin && R.uniform01() < NestedShare) {
      const Prefix &Parent = Table[ParentsBegin + R.below(uint32_t(ParentsEnd - ParentsBegin))];
      return (Parent.Bits | (uint32_t(R.next()) & ~prefixMask(Parent.Length))) & prefixMask(Length);
    }
    for (;;) {
      const double U = R.uniform01() * BlockWeight.back();
      const uint32_t Block = uint32_t(std::upper_bound(BlockWeight.begin(), BlockWeight.end(), U) -
                                      BlockWeight.begin() - 1);
      const uint32_t Bits = (Block << 16 | (uint32_t(R.next()) & 0xFFFFu)) & prefixMask(Length);
      if (!overlapsAggregate(Bits, Bits | ~prefixMask(Length)))
        return Bits;
    }
  }

  bench::Rng &R;
  std::vector<double> BlockWeight;         // 2^16 + 1 cumulative weights of the /16s
  std::map<uint32_t, uint32_t> Aggregates; // first address -> last address
  std::unordered_set<uint64_t> Seen;       // (bits, length) of the prefixes so far
};

} // namespace detail

// The table in order of length (the default route first), from the seed.
inline std::vector<Prefix> generateTable(uint64_t Seed) {
  bench::Rng R(Seed ^ 0x726f75746573ull);
  return detail::TableGenerator(R).generate();
}

} // namespace lpm
