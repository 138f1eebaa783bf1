// Seed 002's regrouping algorithms as the paper writes them, step by step:
// the references the fast versions are tested against. Greedy is cubic and
// Greedy-Max quadratic in threads, so they suit a few hundred threads.
//
// Where the pseudo-code leaves a choice, these choose:
// - Sorting: equal BBVs keep thread id order (stable).
// - Greedy: live groups start as single threads in thread id order, and a
//   merged group joins the end of that list; an edge is (g_m, g_n) with g_m
//   created first, and among edges of equal gain the one whose (g_m, g_n)
//   creation numbers are lowest wins. A union lists g_m's threads, then
//   g_n's. When K - 1 groups are complete, the live groups left, in list
//   order, form the last group. Groups are laid out in the order completed.
// - Greedy-Max: T is in thread id order; ties in latency or gain go to the
//   thread first in T; the last group takes whatever is left.
#pragma once
#include "model/BbvView.h"

#include <cstdint>
#include <vector>

namespace divopt {

std::vector<uint32_t> sortingReference(const BbvView &Bbv);
std::vector<uint32_t> greedyReference(const BbvView &Bbv, const std::vector<double> &Lat,
                                      uint32_t GroupSize);
std::vector<uint32_t> greedyMaxReference(const BbvView &Bbv, const std::vector<double> &Lat,
                                         uint32_t GroupSize);

} // namespace divopt
