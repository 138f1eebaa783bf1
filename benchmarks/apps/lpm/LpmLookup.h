// The per-thread work of the lpm app, shared by its kernels (and the
// hand-written key) and run on the host for the work statistics: the
// longest-prefix match of one IPv4 address in the trie (LpmTrie.h). The
// root entry of the address's /16 gives the best match of at most 16 bits
// and the /16's binary trie; then, while there is a child, the walk reads
// one entry a level, the one for the address's next bit, and a prefix that
// ends there becomes the best match. Each entry is a gather from the 15 MiB
// of nodes whose place the entry before gives. Threads diverge on the
// walk's length: 1 entry in a /16 without longer prefixes (big aggregates,
// the bogons and much of the unannounced space), 9 inside a /24 with
// nothing more specific, up to 17 inside a /32, and anything between where
// an address follows longer prefixes' paths for a while and leaves them.
#pragma once

#include "LpmTrie.h"

#include <cstdint>

namespace lpm {

#if defined(__CUDACC__)
#define LPM_HD __host__ __device__
#else
#define LPM_HD
#endif

// The next hop of the longest matching prefix (NoHop if none, which the
// default route rules out) and the trie nodes the walk visited, the root
// included: the entries it read.
struct Match {
  uint32_t NextHop, Visited;
};

// Always inlined: each kernel then holds the walk's loop itself, where
// divopt's profile counts it (a call is one instruction to it). The kernels
// that use only one of the two results let the compiler drop the other.
LPM_HD inline __attribute__((always_inline)) Match
longestMatch(const Entry *Root, const Entry *Nodes, uint32_t Address) {
  Entry E = Root[Address >> (32 - RootBits)];
  Match M{E.NextHop, 1};
  // The node under the root entry reads bit 16, Shift 15; entries at bit 31
  // (Shift 0) have no child, so the walk stops before Shift would wrap.
  for (uint32_t Shift = 31 - RootBits; E.Child != NoChild; --Shift) {
    E = Nodes[2 * E.Child + ((Address >> Shift) & 1)];
    ++M.Visited;
    if (E.NextHop != NoHop)
      M.NextHop = E.NextHop;
  }
  return M;
}

} // namespace lpm
