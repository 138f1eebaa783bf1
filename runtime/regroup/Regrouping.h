// The fast regrouping algorithms, on threads merged into classes of
// identical BBVs (model/BbvClasses.h). Each returns D with D[physical] =
// logical thread; see Algorithm.h for groups, and docs/model.md for how
// each relates to its reference (ReferenceRegrouping.h).
#pragma once
#include "model/BbvClasses.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace divopt {

// Exactly sortingReference: classes in lexicographic order of their BBVs,
// each class's threads in id order.
std::vector<uint32_t> sorting(const BbvClasses &Bbv, unsigned Workers = 0);

// How far the greedy algorithms look for a partner. A group's partners are
// searched in order of latency outward from its own, pruned by a bound on
// the gain (exact so far); Window caps the candidates looked at per search,
// which bounds the time and makes the search approximate when more
// candidates pass the bound.
struct GreedyOptions {
  // 0: 2^18 / classes candidates, at least 64: exhaustive for launches of up
  // to 512 distinct BBVs; beyond, one search per class costs about 2^18 gains.
  uint32_t Window = 0;
  // Greedy only: classes per independent piece of work, in latency order
  // (one worker each); the groups left over from every piece are merged last.
  uint32_t ChunkClasses = 4096;
  unsigned Workers = 0; // 0: every hardware thread
};

// The window Options ask for, for a launch of Classes distinct BBVs.
inline uint32_t searchWindow(const GreedyOptions &Options, uint32_t Classes) {
  if (Options.Window)
    return Options.Window;
  return std::max(64u, (1u << 18) / std::max(1u, Classes));
}

std::vector<uint32_t> greedy(const BbvClasses &Bbv, const std::vector<double> &Lat,
                             uint32_t GroupSize, const GreedyOptions &Options = {});
std::vector<uint32_t> greedyMax(const BbvClasses &Bbv, const std::vector<double> &Lat,
                                uint32_t GroupSize, const GreedyOptions &Options = {});

} // namespace divopt
