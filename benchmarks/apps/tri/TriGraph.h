// The input of the triangle-counting app: an undirected graph with power-law
// degrees and local clustering, stored in its forward form: each vertex
// keeps only its neighbours with a larger id, ascending, so each triangle
// {v < u < w} is found once, from v.
//
// Two kinds of edges, as in social networks:
// - Chung-Lu edges: vertices u and v are joined about w_u w_v / S times (S
//   the sum of the weights; repeats are dropped). Weights are Pareto with
//   exponent 2, P(w >= x) = (MinWeight / x)^2, drawn as
//   floor(MinWeight / sqrt(u)) (only correctly rounded arithmetic decides
//   them) and truncated at MaxWeight: the degree law P(d) ~ d^-3 of
//   preferential attachment, hubs of up to ~300 neighbours.
// - Community edges: each vertex joins one of N / CommunitySize communities
//   at random, and two members of a community are joined with probability
//   CommunityEdgeProbability (~4 such neighbours a vertex). These close
//   most of the triangles; Chung-Lu edges alone close few.
// Mean degree ~15. Each vertex draws its own weight and community, so ids
// are in no relation to degrees: hubs are scattered over the id range, as
// after a random relabelling, and a hub keeps the share of its neighbours
// whose ids are larger (nearly all for a hub with a small id, none for one
// with a large id).
//
// The cap on the weights bounds the longest thread: a hub with a small id
// merges its list with each of its neighbours' lists, some 256^2 steps that
// no regrouping can share out; hubs of a few thousand neighbours would keep
// one thread busy for tens of milliseconds.
//
// Vertex v draws its forward neighbours itself. Chung-Lu: about
// w_v (S - W_v) / S draws (W_v the weights of vertices 0..v, rounded up or
// down at random), each a vertex above v drawn with probability proportional
// to its weight (the owner of a uniformly drawn weight slot above v's), so
// the pair {v, u} gets w_v w_u / S draws on average from its smaller vertex,
// as in Chung-Lu's model. Community: a coin for each member above v. Every
// vertex has its own random stream, so the graph is the same whatever the
// number of host threads, and lists are built, sorted and deduplicated in
// parallel.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace tri {

constexpr double MinWeight = 6;
constexpr uint32_t MaxWeight = 256;
constexpr uint32_t CommunitySize = 16; // on average
constexpr double CommunityEdgeProbability = 0.25;

struct ForwardGraph {
  std::vector<uint32_t> Start;   // vertices + 1 offsets into Forward
  std::vector<uint32_t> Forward; // each vertex's larger neighbours, ascending
  uint32_t vertices() const { return uint32_t(Start.size() - 1); }
  uint32_t degree(uint32_t V) const { return Start[V + 1] - Start[V]; }
};

namespace detail {

// Vertex V's own streams: stream 0 draws its weight and community, stream 1
// its forward neighbours.
inline bench::Rng vertexStream(uint64_t Seed, uint32_t V, uint64_t Stream) {
  return bench::Rng(bench::Rng(Seed ^ (uint64_t(V) * 0xd1b54a32d192ed03ULL) ^
                               (Stream * 0x8cb92ba72f3d8dd7ULL))
                        .next());
}

// Exits 2 if the lists would not fit 32-bit offsets.
inline void requireOffsets(uint64_t Entries, uint32_t N) {
  if (Entries > UINT32_MAX) {
    std::fprintf(stderr, "tri: %u vertices have over 2^32 forward entries\n", N);
    std::exit(2);
  }
}

// Offsets from counts: Start[v + 1] holds v's count on entry, the end of v's
// range on return.
inline void countsToOffsets(std::vector<uint32_t> &Start) {
  uint64_t Entries = 0;
  for (size_t V = 1; V < Start.size(); ++V) {
    Entries += Start[V];
    requireOffsets(Entries, uint32_t(Start.size() - 1));
    Start[V] = uint32_t(Entries);
  }
}

} // namespace detail

inline ForwardGraph generate(uint32_t N, uint64_t Seed) {
  const uint32_t Communities = std::max(1u, N / CommunitySize);
  // SlotStart[v]: the weight of the vertices below v; v owns the slots
  // [SlotStart[v], SlotStart[v + 1]).
  std::vector<uint64_t> SlotStart(uint64_t(N) + 1, 0);
  std::vector<uint32_t> Community(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t V = Begin; V < End; ++V) {
      bench::Rng R = detail::vertexStream(Seed, uint32_t(V), 0);
      const double Weight = MinWeight / std::sqrt(1.0 - R.uniform01());
      SlotStart[V + 1] = Weight >= MaxWeight ? MaxWeight : uint64_t(Weight);
      Community[V] = R.below(Communities);
    }
  });
  for (uint64_t V = 0; V < N; ++V)
    SlotStart[V + 1] += SlotStart[V];
  const uint64_t Slots = SlotStart[N];
  std::vector<uint32_t> Owner(Slots);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t V = Begin; V < End; ++V)
      std::fill(Owner.begin() + SlotStart[V], Owner.begin() + SlotStart[V + 1], uint32_t(V));
  });
  // Each community's members, ascending (a counting sort).
  std::vector<uint32_t> MemberStart(uint64_t(Communities) + 1, 0), Members(N);
  for (uint32_t V = 0; V < N; ++V)
    ++MemberStart[Community[V] + 1];
  detail::countsToOffsets(MemberStart);
  {
    std::vector<uint32_t> Fill(MemberStart.begin(), MemberStart.end() - 1);
    for (uint32_t V = 0; V < N; ++V)
      Members[Fill[Community[V]]++] = V;
  }
  // The members of V's community above V.
  auto membersAbove = [&](uint32_t V) {
    const uint32_t *First = Members.data() + MemberStart[Community[V]];
    const uint32_t *Last = Members.data() + MemberStart[Community[V] + 1];
    return std::make_pair(std::upper_bound(First, Last, V), Last);
  };
  // How many Chung-Lu partners V draws; the same stream then draws them.
  auto chungLuDraws = [&](bench::Rng &R, uint32_t V) {
    const double Mean = double(SlotStart[V + 1] - SlotStart[V]) *
                        double(Slots - SlotStart[V + 1]) / double(Slots);
    return uint32_t(Mean + R.uniform01());
  };

  // Room for each vertex's candidates: its Chung-Lu draws and the members
  // above it, every one of which may be picked.
  std::vector<uint32_t> CandidateStart(uint64_t(N) + 1, 0);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t V = Begin; V < End; ++V) {
      bench::Rng R = detail::vertexStream(Seed, uint32_t(V), 1);
      const auto [Above, Last] = membersAbove(uint32_t(V));
      CandidateStart[V + 1] = chungLuDraws(R, uint32_t(V)) + uint32_t(Last - Above);
    }
  });
  detail::countsToOffsets(CandidateStart);
  // Each vertex's candidates, sorted and deduplicated in place; Kept[v]
  // counts the distinct ones.
  std::vector<uint32_t> Candidates(CandidateStart[N]), Kept(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t V = Begin; V < End; ++V) {
      bench::Rng R = detail::vertexStream(Seed, uint32_t(V), 1);
      uint32_t *const List = Candidates.data() + CandidateStart[V];
      uint32_t *Next = List;
      const uint64_t SlotsAbove = SlotStart[V + 1];
      for (uint32_t K = chungLuDraws(R, uint32_t(V)); K > 0; --K)
        *Next++ = Owner[SlotsAbove + R.next() % (Slots - SlotsAbove)];
      const auto [Above, Last] = membersAbove(uint32_t(V));
      for (const uint32_t *U = Above; U != Last; ++U)
        if (R.uniform01() < CommunityEdgeProbability)
          *Next++ = *U;
      std::sort(List, Next);
      Kept[V] = uint32_t(std::unique(List, Next) - List);
    }
  });

  ForwardGraph G;
  G.Start.assign(uint64_t(N) + 1, 0);
  std::copy(Kept.begin(), Kept.end(), G.Start.begin() + 1);
  detail::countsToOffsets(G.Start);
  G.Forward.resize(G.Start[N]);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t V = Begin; V < End; ++V)
      std::copy_n(Candidates.data() + CandidateStart[V], Kept[V], G.Forward.data() + G.Start[V]);
  });
  return G;
}

} // namespace tri
