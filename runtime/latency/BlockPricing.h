// lat[b] of seed 002 eq. (2): a basic block's latency is the sum over its
// instruction mix (kernel notes) of count x the table's cycles for the key
// (Listing 2: 610 cycles with the GTX480 table).
#pragma once
#include "divopt/KernelNotes.h"
#include "latency/LatencyTable.h"

#include <map>
#include <string>
#include <vector>

namespace divopt {

// A key the table does not list and prices by a fallback.
struct GuessedKey {
  std::string Key;
  KeyPrice Price;
  // One line for the user: "key 'ld.global' is not in TABLE: priced 45
  // cycles, the median of its family 'ld'".
  std::string warning(const LatencyTable &T) const;
};

struct BlockLatencies {
  std::vector<double> Cycles;      // lat[b], indexed by block id
  std::vector<GuessedKey> Guessed; // each fallback-priced key once, in key order
};

BlockLatencies priceBlocks(const KernelNote &Kernel, const LatencyTable &Table);

// How long a warp alone takes to run each block (ours, SM-pipes): its
// longest dependence chain (the notes' critical_path) priced with Table, and
// no less than one cycle per issue slot it takes (IssuePipes.h, issueSlots),
// since a warp issues at most one instruction a cycle. Where the notes have
// no chain, the whole mix (priceBlocks).
// An in-order warp stalls only on an operand not yet computed, so
// independent instructions overlap: seed 002's sum of every instruction's
// latency overstates a block with parallel work, the more so the more it has.
std::vector<double> priceChains(const KernelNote &Kernel, const LatencyTable &Table);

// One mix; keys priced by a fallback are added to Guessed (once each).
double priceMix(const std::map<std::string, unsigned> &Mix, const LatencyTable &Table,
                std::vector<GuessedKey> &Guessed);

} // namespace divopt
