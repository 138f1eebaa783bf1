#include "regroup/Algorithm.h"
#include "regroup/GroupGain.h"
#include "regroup/ReferenceRegrouping.h"

#include <algorithm>
#include <limits>
#include <map>

namespace divopt {

namespace {

struct Group {
  uint32_t Id = 0; // creation number
  std::vector<uint32_t> Threads;
  std::vector<uint32_t> Min, Max; // eqs. (6), (7)
};

Group makeGroup(uint32_t Id, std::vector<uint32_t> Threads, const BbvView &Bbv) {
  Group G{Id, std::move(Threads), {}, {}};
  G.Min.assign(Bbv.Blocks, std::numeric_limits<uint32_t>::max());
  G.Max.assign(Bbv.Blocks, 0);
  for (uint32_t T : G.Threads)
    for (uint32_t Bb = 0; Bb < Bbv.Blocks; ++Bb) {
      G.Min[Bb] = std::min(G.Min[Bb], Bbv.count(Bb, T));
      G.Max[Bb] = std::max(G.Max[Bb], Bbv.count(Bb, T));
    }
  return G;
}

double gain(const Group &A, const Group &B, const std::vector<double> &Lat) {
  return mergeGain({A.Min.data(), A.Max.data()}, {B.Min.data(), B.Max.data()}, Lat.data(),
                   uint32_t(Lat.size()));
}

} // namespace

// Algorithm 1 with the Merge function.
std::vector<uint32_t> greedyReference(const BbvView &Bbv, const std::vector<double> &Lat,
                                      uint32_t GroupSize) {
  uint32_t K = groupCount(Bbv.Threads, GroupSize);
  std::vector<Group> G; // live groups, in list order
  for (uint32_t T = 0; T < Bbv.Threads; ++T)
    G.push_back(makeGroup(T, {T}, Bbv));
  uint32_t NextId = Bbv.Threads;
  // E: (g_m, g_n) creation numbers -> gain, g_m < g_n (lines 1-5).
  std::map<std::pair<uint32_t, uint32_t>, double> E;
  for (size_t I = 0; I < G.size(); ++I)
    for (size_t J = I + 1; J < G.size(); ++J)
      E[{G[I].Id, G[J].Id}] = gain(G[I], G[J], Lat);

  std::vector<uint32_t> D;
  uint32_t Groups = 0;
  while (Groups + 1 < K) { // line 7
    auto Best = E.begin(); // line 8: first in (g_m, g_n) order among equal gains
    for (auto It = E.begin(); It != E.end(); ++It)
      if (It->second > Best->second)
        Best = It;
    auto [M, N] = Best->first;
    auto Find = [&](uint32_t Id) {
      return std::find_if(G.begin(), G.end(), [&](const Group &X) { return X.Id == Id; });
    };
    std::vector<uint32_t> Union = Find(M)->Threads; // line 9: Merge
    const std::vector<uint32_t> &Second = Find(N)->Threads;
    Union.insert(Union.end(), Second.begin(), Second.end());
    if (Union.size() > GroupSize) {
      D.insert(D.end(), Union.begin(), Union.begin() + GroupSize); // g*: the first groupsize
      Union.erase(Union.begin(), Union.begin() + GroupSize);
      ++Groups;
    }
    for (auto It = E.begin(); It != E.end();) // lines 10-12
      It = It->first.first == M || It->first.second == M || It->first.first == N ||
                   It->first.second == N
               ? E.erase(It)
               : std::next(It);
    G.erase(Find(M)); // line 16
    G.erase(Find(N));
    Group New = makeGroup(NextId++, std::move(Union), Bbv);
    for (const Group &X : G) // lines 13-14
      E[{X.Id, New.Id}] = gain(X, New, Lat);
    G.push_back(std::move(New)); // line 17
  }
  for (const Group &X : G) // the last group: what is left
    D.insert(D.end(), X.Threads.begin(), X.Threads.end());
  return D;
}

} // namespace divopt
