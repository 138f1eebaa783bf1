// The per-vertex work of the pull app, shared by its kernels: one pull-style
// PageRank update, as GAP's PageRankPull computes it (and PageRank as an
// SpMV over the transposed graph). Vertex v sums the contributions
// Contrib[u] = Rank[u] / OutDegree[u] of its in-neighbours u, in the order
// of its row, then
//   Rank'[v]    = (1 - d) / N + d * sum        (d = 0.85)
//   Contrib'[v] = Rank'[v] / OutDegree[v]      (0 without out-edges)
// the second for the next iteration's gathers (nothing gathers a vertex
// without out-edges; GAP would divide by zero). Dangling vertices' rank is
// not redistributed, as in GAP.
//
// Float, as GAP and GPU frameworks use: every operation goes through
// common/RoundedFloat.h, so nothing is contracted into an fma or
// approximated and the host gives the same bits for the same order of
// additions. The sum runs over the row in order; the reference adds in the
// same order by pushing from sources in ascending id order (PullReference.h).
#pragma once

#include "../common/RoundedFloat.h"

#include <cstdint>
#include <vector>

namespace pull {

#if defined(__CUDACC__)
#define PULL_HD __host__ __device__
#else
#define PULL_HD
#endif

constexpr float Damping = 0.85f;

// (1 - d) / N, the rank every vertex gets before its in-links.
inline float teleportRank(uint32_t N) {
  return bench::rounded::divide(bench::rounded::sub(1.0f, Damping), float(N));
}

// The starting rank, 1 / N, as every PageRank run begins.
inline float startingRank(uint32_t N) { return bench::rounded::divide(1.0f, float(N)); }

PULL_HD inline float contribution(float Rank, uint32_t OutDegree) {
  return OutDegree == 0 ? 0.0f : bench::rounded::divide(Rank, float(OutDegree));
}

// The contributions the kernel gathers: the first iteration's, from the
// starting ranks.
inline std::vector<float> startingContributions(const std::vector<uint32_t> &OutDegree) {
  const float Rank = startingRank(uint32_t(OutDegree.size()));
  std::vector<float> Contrib(OutDegree.size());
  for (size_t U = 0; U < OutDegree.size(); ++U)
    Contrib[U] = contribution(Rank, OutDegree[U]);
  return Contrib;
}

PULL_HD inline float updatedRank(float Teleport, float Sum) {
  return bench::rounded::add(Teleport, bench::rounded::mul(Damping, Sum));
}

// The sum of V's in-neighbours' contributions, row order. Always inlined:
// each kernel then holds the gather loop itself, where divopt's profile
// counts it.
PULL_HD inline __attribute__((always_inline)) float
gatherContributions(const uint32_t *RowStart, const uint32_t *Source, const float *Contrib,
                    uint32_t V) {
  float Sum = 0.0f;
  for (uint32_t E = RowStart[V], End = RowStart[V + 1]; E < End; ++E)
    Sum = bench::rounded::add(Sum, Contrib[Source[E]]);
  return Sum;
}

} // namespace pull
