// The lpm app's addresses: the destinations of the packets a router's
// forwarding path looks up, one per thread, in arrival order. Each is, at
// random, one of three kinds:
// - RouteShare (45%): traffic to the long tail of networks: a prefix of /8
//   to /24 drawn uniformly from the table (so mostly a /24) and a uniformly
//   random address inside it;
// - InternalShare (15%): traffic to the router's own customers and
//   infrastructure: a /25 to /32 route drawn uniformly, an address inside;
// - the rest (40%): uniform over the IPv4 space, the traffic that follows
//   address space rather than prefix count: big networks' aggregates, and
//   scans and backscatter into unannounced space and bogons, matched by
//   short prefixes or the default route alone.
// An address inside a drawn prefix may match a longer prefix under it. The
// kinds are mixed at random, so a warp holds lanes of all three: walks of 1
// to 17 trie nodes (LpmLookup.h). All draws come from one bench::Rng stream
// of the seed's, so the addresses do not depend on the host's threads.
#pragma once

#include "../common/Random.h"
#include "LpmTable.h"

#include <cstdint>
#include <vector>

namespace lpm {

constexpr double RouteShare = 0.45, InternalShare = 0.15;
constexpr uint32_t LongestRoute = 24; // the longest length of the RouteShare kind

inline std::vector<uint32_t> generateAddresses(const std::vector<Prefix> &Table, uint32_t N,
                                               uint64_t Seed) {
  std::vector<uint32_t> Routes, Internal; // indices into Table
  for (uint32_t I = 0; I < Table.size(); ++I)
    if (Table[I].Length > LongestRoute)
      Internal.push_back(I);
    else if (Table[I].Length > 0)
      Routes.push_back(I);
  bench::Rng R(Seed ^ 0x61646472657373ull);
  auto inside = [&R](const Prefix &P) {
    return P.Bits | (uint32_t(R.next()) & ~prefixMask(P.Length));
  };
  std::vector<uint32_t> Addresses(N);
  for (uint32_t &A : Addresses) {
    const double Kind = R.uniform01();
    if (Kind < RouteShare)
      A = inside(Table[Routes[R.below(uint32_t(Routes.size()))]]);
    else if (Kind < RouteShare + InternalShare)
      A = inside(Table[Internal[R.below(uint32_t(Internal.size()))]]);
    else
      A = uint32_t(R.next());
  }
  return Addresses;
}

} // namespace lpm
