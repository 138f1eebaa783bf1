// CPU reference for the lpm app, by another method than the trie's: a sweep
// over the address line. Prefixes are intervals of addresses that are
// either nested or disjoint, so with the prefixes sorted by first address
// (shorter first among equals) and the addresses sorted, one pass keeps a
// stack of the prefixes open at the current address, each inside the one
// below it: a prefix is pushed when the sweep reaches its first address,
// those that ended are popped, and the top is the longest prefix containing
// the address. It shares only the table with the kernels, so it checks the
// trie's build, the walk and the regroupings: next hops must be equal.
#pragma once

#include "LpmTable.h"
#include "LpmTrie.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace lpm {

inline std::vector<uint32_t> referenceNextHops(const std::vector<Prefix> &Table,
                                               const std::vector<uint32_t> &Addresses) {
  std::vector<Prefix> Intervals(Table);
  std::sort(Intervals.begin(), Intervals.end(), [](const Prefix &A, const Prefix &B) {
    return A.Bits != B.Bits ? A.Bits < B.Bits : A.Length < B.Length;
  });
  std::vector<uint32_t> Order(Addresses.size());
  for (uint32_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(),
            [&](uint32_t A, uint32_t B) { return Addresses[A] < Addresses[B]; });

  auto last = [](const Prefix &P) { return P.Bits | ~prefixMask(P.Length); };
  std::vector<const Prefix *> Open;
  size_t Next = 0;
  std::vector<uint32_t> Out(Addresses.size());
  for (uint32_t I : Order) {
    const uint32_t A = Addresses[I];
    for (; Next < Intervals.size() && Intervals[Next].Bits <= A; ++Next) {
      while (!Open.empty() && last(*Open.back()) < Intervals[Next].Bits)
        Open.pop_back();
      Open.push_back(&Intervals[Next]);
    }
    while (!Open.empty() && last(*Open.back()) < A)
      Open.pop_back();
    Out[I] = Open.empty() ? NoHop : Open.back()->NextHop;
  }
  return Out;
}

} // namespace lpm
