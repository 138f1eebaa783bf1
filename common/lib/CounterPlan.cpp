// Counters on the edges off a maximum spanning tree of the closed CFG, and
// every block's count rebuilt from them (divopt/CounterPlan.h).
//
// Compiled into both divopt_common and the pass plugin: standard C++ only.
#include "divopt/CounterPlan.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <numeric>
#include <stdexcept>

namespace divopt {
namespace {

// An edge of the closed CFG: nodes are the blocks and, last, the virtual exit.
struct Edge {
  CounterEdge Id;
  unsigned Src = 0;
  unsigned Dst = 0;
};

std::string edgeName(const CounterEdge &E) {
  if (E.Succ == CounterEdge::ExitEdge)
    return "the exit edge of block " + std::to_string(E.From);
  return "successor " + std::to_string(E.Succ) + " of block " + std::to_string(E.From);
}

// Every real edge of the closed CFG, by block id, then successor index (the
// exit edge of a block without successors is its only edge).
std::vector<Edge> closedEdges(const Successors &Succ) {
  const unsigned N = unsigned(Succ.size());
  std::vector<Edge> Edges;
  for (unsigned B = 0; B < N; ++B) {
    if (Succ[B].empty()) {
      Edges.push_back({{B, CounterEdge::ExitEdge}, B, N});
      continue;
    }
    for (unsigned S = 0; S < Succ[B].size(); ++S) {
      if (Succ[B][S] >= N)
        throw std::invalid_argument("successor " + std::to_string(S) + " of block " +
                                    std::to_string(B) + " is block " +
                                    std::to_string(Succ[B][S]) + ", past the last block " +
                                    std::to_string(N - 1));
      Edges.push_back({{B, S}, B, Succ[B][S]});
    }
  }
  return Edges;
}

struct UnionFind {
  std::vector<unsigned> Parent;
  explicit UnionFind(unsigned N) : Parent(N) { std::iota(Parent.begin(), Parent.end(), 0u); }
  unsigned find(unsigned X) {
    while (Parent[X] != X)
      X = Parent[X] = Parent[Parent[X]];
    return X;
  }
  // False when A and B were already joined.
  bool join(unsigned A, unsigned B) {
    A = find(A);
    B = find(B);
    if (A == B)
      return false;
    Parent[std::max(A, B)] = std::min(A, B);
    return true;
  }
};

// A linear form in the counters, modulo 2^32.
struct Linear {
  uint32_t Constant = 0;
  std::map<uint32_t, uint32_t> Terms;

  void add(const Linear &O, uint32_t Sign) { // Sign: 1 or uint32_t(-1)
    Constant += Sign * O.Constant;
    for (auto [C, K] : O.Terms) {
      uint32_t &T = Terms[C];
      T += Sign * K;
      if (T == 0)
        Terms.erase(C);
    }
  }
};

} // namespace

std::vector<CounterEdge> chooseCountedEdges(const Successors &Succ,
                                            const std::vector<std::vector<double>> &Weights) {
  std::vector<Edge> Edges = closedEdges(Succ);
  if (!Weights.empty() && Weights.size() != Succ.size())
    throw std::invalid_argument("weights for " + std::to_string(Weights.size()) +
                                " blocks, successors for " + std::to_string(Succ.size()));
  std::vector<double> W(Edges.size(), 1.0);
  if (!Weights.empty())
    for (unsigned I = 0; I < Edges.size(); ++I) {
      const CounterEdge &E = Edges[I].Id;
      const std::vector<double> &Of = Weights[E.From];
      size_t Expected = std::max<size_t>(Succ[E.From].size(), 1);
      if (Of.size() != Expected)
        throw std::invalid_argument("block " + std::to_string(E.From) + " has " +
                                    std::to_string(Of.size()) + " edge weights for " +
                                    std::to_string(Expected) + " edges");
      double X = Of[E.Succ == CounterEdge::ExitEdge ? 0 : E.Succ];
      W[I] = std::isnan(X) ? 0.0 : X;
    }
  // Heaviest first; a stable sort keeps block, then successor order on ties.
  std::vector<unsigned> Order(Edges.size());
  std::iota(Order.begin(), Order.end(), 0u);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](unsigned A, unsigned B) { return W[A] > W[B]; });
  UnionFind Tree(unsigned(Succ.size()) + 1);
  std::vector<bool> InTree(Edges.size());
  for (unsigned I : Order)
    InTree[I] = Tree.join(Edges[I].Src, Edges[I].Dst);
  std::vector<CounterEdge> Counted;
  for (unsigned I = 0; I < Edges.size(); ++I)
    if (!InTree[I])
      Counted.push_back(Edges[I].Id);
  return Counted;
}

CounterPlan::CounterPlan(const Successors &Succ, const std::vector<CounterEdge> &Counted) {
  const unsigned N = unsigned(Succ.size());
  if (N == 0)
    throw std::invalid_argument("a kernel has at least one block");
  std::vector<Edge> Edges = closedEdges(Succ);
  // Edge index of each block's first edge: edge (b, s) is First[b] + s.
  std::vector<unsigned> First(N + 1);
  for (unsigned B = 0; B < N; ++B)
    First[B + 1] = First[B] + unsigned(std::max<size_t>(Succ[B].size(), 1));

  std::vector<Linear> Value(Edges.size());
  std::vector<int> CounterOf(Edges.size(), -1);
  for (unsigned C = 0; C < Counted.size(); ++C) {
    const CounterEdge &E = Counted[C];
    std::string Which = "counter " + std::to_string(C) + " (" + edgeName(E) + ")";
    if (E.From >= N)
      throw std::invalid_argument(Which + ": the kernel has " + std::to_string(N) + " blocks");
    if (E.Succ == CounterEdge::ExitEdge ? !Succ[E.From].empty() : E.Succ >= Succ[E.From].size())
      throw std::invalid_argument(Which + ": no such edge, block " + std::to_string(E.From) +
                                  " has " + std::to_string(Succ[E.From].size()) + " successors");
    unsigned I = First[E.From] + (E.Succ == CounterEdge::ExitEdge ? 0 : E.Succ);
    if (CounterOf[I] >= 0)
      throw std::invalid_argument(Which + ": the edge is counter " +
                                  std::to_string(CounterOf[I]) + " too");
    CounterOf[I] = int(C);
    Value[I].Terms[C] = 1;
  }

  // The uncounted edges must not close a cycle (of the undirected closed CFG,
  // the known exit -> entry edge left out): a cycle's flow could change
  // without changing any counter. Acyclic, leaf peeling solves them all.
  UnionFind Forest(N + 1);
  std::vector<std::vector<unsigned>> Incident(N + 1);
  std::vector<unsigned> Unknown(N + 1); // unsolved edges at each node
  for (unsigned I = 0; I < Edges.size(); ++I) {
    const Edge &E = Edges[I];
    Incident[E.Src].push_back(I);
    if (E.Dst != E.Src)
      Incident[E.Dst].push_back(I);
    if (CounterOf[I] >= 0)
      continue;
    if (!Forest.join(E.Src, E.Dst))
      throw std::invalid_argument(
          "the counters do not determine the block counts: " + edgeName(E.Id) +
          (E.Src == E.Dst ? " is a self loop" : " closes a cycle of uncounted edges") +
          " (count it)");
    ++Unknown[E.Src];
    ++Unknown[E.Dst];
  }

  // A node with one unsolved edge: flow conservation, in == out, where the
  // entry also receives the exit -> entry edge (1) and the exit sends it.
  std::vector<bool> Solved(Edges.size());
  for (unsigned I = 0; I < Edges.size(); ++I)
    Solved[I] = CounterOf[I] >= 0;
  std::deque<unsigned> Leaves;
  for (unsigned X = 0; X <= N; ++X)
    if (Unknown[X] == 1)
      Leaves.push_back(X);
  const uint32_t Plus = 1, Minus = uint32_t(-1);
  while (!Leaves.empty()) {
    unsigned X = Leaves.front();
    Leaves.pop_front();
    if (Unknown[X] != 1)
      continue;
    unsigned Target = 0;
    Linear In, Out; // of X, over its solved edges
    if (X == 0)
      In.Constant += 1;
    if (X == N)
      Out.Constant += 1;
    for (unsigned I : Incident[X]) {
      if (!Solved[I]) {
        Target = I;
        continue;
      }
      if (Edges[I].Dst == X)
        In.add(Value[I], Plus);
      if (Edges[I].Src == X)
        Out.add(Value[I], Plus);
    }
    Linear &V = Value[Target];
    if (Edges[Target].Dst == X) { // in-edge: Out - the rest of In
      V = Out;
      V.add(In, Minus);
    } else {
      V = In;
      V.add(Out, Minus);
    }
    Solved[Target] = true;
    unsigned Other = Edges[Target].Src == X ? Edges[Target].Dst : Edges[Target].Src;
    --Unknown[X];
    if (--Unknown[Other] == 1)
      Leaves.push_back(Other);
  }

  NumCounters = unsigned(Counted.size());
  Blocks.resize(N);
  std::vector<Linear> Count(N);
  Count[0].Constant = 1;
  for (unsigned I = 0; I < Edges.size(); ++I)
    if (Edges[I].Dst < N)
      Count[Edges[I].Dst].add(Value[I], Plus);
  for (unsigned B = 0; B < N; ++B) {
    Blocks[B].Constant = Count[B].Constant;
    Blocks[B].Terms.assign(Count[B].Terms.begin(), Count[B].Terms.end());
  }
}

CounterPlan CounterPlan::perBlock(unsigned NumBlocks) {
  CounterPlan P;
  P.NumCounters = NumBlocks;
  P.Blocks.resize(NumBlocks);
  for (unsigned B = 0; B < NumBlocks; ++B)
    P.Blocks[B].Terms = {{B, 1}};
  return P;
}

void CounterPlan::blockCounts(const uint32_t *Counters, uint32_t *Counts) const {
  for (unsigned B = 0; B < Blocks.size(); ++B) {
    uint32_t N = Blocks[B].Constant;
    for (auto [C, K] : Blocks[B].Terms)
      N += K * Counters[C];
    Counts[B] = N;
  }
}

} // namespace divopt
