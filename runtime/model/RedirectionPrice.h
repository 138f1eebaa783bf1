// What regrouping through a redirection array costs the kernel, which seed
// 002 leaves out: each thread loads its logical id (D[physical id]: one
// coalesced warp-wide load), and every per-thread array access whose address
// follows the logical thread id is no longer coalesced, since a warp's
// logical ids are scattered. On an H200, a loop of geometric trip count
// regrouped this way ran 2.8x faster at 160 trips on average and 0.69x at 20:
// a model without this price predicts a gain in both.
#pragma once
#include "latency/LatencyTable.h"

#include <cstdint>
#include <string>
#include <vector>

namespace divopt {

struct RedirectionPrice {
  double PerWarp = 0; // the load of D, once per warp
  // Extra cycles per execution of basic block b: its accesses that follow the
  // logical thread id, each turned from one coalesced access into a
  // scattered one. Empty when no access is marked.
  std::vector<double> PerBlock;
  // Table keys the price used that the table does not list.
  std::vector<std::string> Guessed;
};

// TidAccesses[b]: accesses in block b whose address follows the logical
// thread id, from the notes (tidAccessesPerBlock); empty: none known.
//
// A scattered access costs the table's "ld.global.scattered" minus
// "ld.global" beyond a coalesced one when the table has both; else
// 7 x ld.global, since a coalesced 4-byte warp access moves 4 sectors of 32
// bytes and a scattered one 32: the extra 28 are charged at the coalesced rate.
RedirectionPrice priceRedirection(const LatencyTable &Table,
                                  const std::vector<unsigned> &TidAccesses = {});

} // namespace divopt
