// CPU reference for the pull app, the push formulation of the same
// iteration: the graph's forward CSR (each vertex's out-neighbours) is
// built from the rows by a counting sort, then every source u in ascending
// id order adds Contrib[u] to the accumulator of each of its targets. Rows
// are sorted by source id (repeats adjacent), so each accumulator receives
// its row's contributions in the row's order, and float addition (through
// common/RoundedFloat.h) gives the kernel's sums bit for bit. It shares the
// rank formulas (PullRank.h) with the kernels, but not the gather loop or
// its indexing: the kernels' ranks and next contributions must be equal.
#pragma once

#include "../common/RoundedFloat.h"
#include "PullGraph.h"
#include "PullRank.h"

#include <cstdint>
#include <vector>

namespace pull {

struct Ranks {
  std::vector<float> Rank, NextContrib;
};

inline Ranks referenceIteration(const Graph &G, const std::vector<float> &Contrib) {
  const uint32_t N = G.vertices();
  std::vector<uint32_t> OutStart(uint64_t(N) + 1, 0);
  for (uint32_t U = 0; U < N; ++U)
    OutStart[U + 1] = OutStart[U] + G.OutDegree[U];
  std::vector<uint32_t> Target(G.Source.size());
  std::vector<uint32_t> Next(OutStart.begin(), OutStart.end() - 1);
  for (uint32_t V = 0; V < N; ++V)
    for (uint32_t E = G.RowStart[V]; E < G.RowStart[V + 1]; ++E)
      Target[Next[G.Source[E]]++] = V;

  std::vector<float> Sum(N, 0.0f);
  for (uint32_t U = 0; U < N; ++U)
    for (uint32_t E = OutStart[U]; E < OutStart[U + 1]; ++E)
      Sum[Target[E]] = bench::rounded::add(Sum[Target[E]], Contrib[U]);

  const float Teleport = teleportRank(N);
  Ranks Out{std::vector<float>(N), std::vector<float>(N)};
  for (uint32_t V = 0; V < N; ++V) {
    Out.Rank[V] = updatedRank(Teleport, Sum[V]);
    Out.NextContrib[V] = contribution(Out.Rank[V], G.OutDegree[V]);
  }
  return Out;
}

} // namespace pull
