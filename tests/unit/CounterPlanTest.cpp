// Counters on the edges off a spanning tree (divopt/CounterPlan.h): on random
// CFGs (self loops, parallel edges, several exits, blocks unreachable from the
// entry, irreducible loops), random walks from the entry to an exit give the
// true block and edge counts; the counted edges' counts alone must rebuild
// every block's count. Plus the errors, and the notes' "counters".
#include "divopt/CounterPlan.h"
#include "divopt/KernelNotes.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <stdexcept>

namespace divopt {
namespace {

// A random CFG whose blocks reachable from the entry can all reach an exit
// (a walk ends), with a probability for each successor edge.
struct RandomCfg {
  Successors Succ;
  std::vector<std::vector<double>> Prob;
};

bool everyReachableBlockExits(const Successors &Succ) {
  const unsigned N = Succ.size();
  std::vector<bool> Reached(N), Exits(N);
  std::vector<unsigned> Work{0};
  Reached[0] = true;
  while (!Work.empty()) {
    unsigned B = Work.back();
    Work.pop_back();
    for (unsigned S : Succ[B])
      if (!Reached[S])
        Reached[S] = true, Work.push_back(S);
  }
  for (unsigned B = 0; B < N; ++B)
    Exits[B] = Succ[B].empty();
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned B = 0; B < N; ++B)
      if (!Exits[B] && std::any_of(Succ[B].begin(), Succ[B].end(),
                                   [&](unsigned S) { return bool(Exits[S]); }))
        Exits[B] = Changed = true;
  }
  for (unsigned B = 0; B < N; ++B)
    if (Reached[B] && !Exits[B])
      return false;
  return true;
}

RandomCfg randomCfg(std::mt19937 &Rng, bool EntryMayHavePreds) {
  for (;;) {
    unsigned N = std::uniform_int_distribution<unsigned>(1, 12)(Rng);
    RandomCfg G;
    G.Succ.resize(N);
    G.Prob.resize(N);
    unsigned Lo = EntryMayHavePreds || N == 1 ? 0 : 1;
    std::uniform_int_distribution<unsigned> Target(Lo, N - 1);
    for (unsigned B = 0; B < N; ++B) {
      unsigned Kind = std::uniform_int_distribution<unsigned>(0, 9)(Rng);
      unsigned NumSucc = Kind < 2 ? 0 : Kind < 5 ? 1 : Kind < 9 ? 2 : 3; // ret, br, br c, switch
      for (unsigned S = 0; S < NumSucc; ++S) {
        unsigned T = Target(Rng);
        if (S == 1 && std::uniform_int_distribution<unsigned>(0, 5)(Rng) == 0)
          T = G.Succ[B][0]; // br %c, %x, %x
        G.Succ[B].push_back(T);
        G.Prob[B].push_back(std::uniform_real_distribution<double>(0.05, 1.0)(Rng));
      }
    }
    if (everyReachableBlockExits(G.Succ))
      return G;
  }
}

// Edge counts of the closed CFG: Edges[b][s], and Exit[b] for the exit edge.
struct Counts {
  std::vector<uint32_t> Blocks;
  std::vector<std::vector<uint32_t>> Edges;
  std::vector<uint32_t> Exit;
};

// Threads walking from the entry to an exit, their counts summed (a plan
// rebuilds one thread's counts: its formulas' constants count per thread).
Counts walk(const RandomCfg &G, unsigned Threads, std::mt19937 &Rng) {
  const unsigned N = G.Succ.size();
  Counts C;
  C.Blocks.assign(N, 0);
  C.Exit.assign(N, 0);
  for (unsigned B = 0; B < N; ++B)
    C.Edges.emplace_back(G.Succ[B].size(), 0);
  for (unsigned T = 0; T < Threads; ++T) {
    unsigned B = 0;
    for (unsigned Steps = 0;; ++Steps) {
      ++C.Blocks[B];
      if (G.Succ[B].empty()) {
        ++C.Exit[B];
        break;
      }
      std::discrete_distribution<unsigned> Pick(G.Prob[B].begin(), G.Prob[B].end());
      unsigned S = Pick(Rng);
      ++C.Edges[B][S];
      B = G.Succ[B][S];
    }
  }
  return C;
}

uint32_t edgeCount(const Counts &C, const CounterEdge &E) {
  return E.Succ == CounterEdge::ExitEdge ? C.Exit[E.From] : C.Edges[E.From][E.Succ];
}

std::vector<uint32_t> rebuilt(const CounterPlan &Plan, const Counts &C,
                              const std::vector<CounterEdge> &Counted) {
  std::vector<uint32_t> Counters;
  for (const CounterEdge &E : Counted)
    Counters.push_back(edgeCount(C, E));
  std::vector<uint32_t> Blocks(Plan.numBlocks());
  Plan.blockCounts(Counters.data(), Blocks.data());
  return Blocks;
}

// Components of the undirected closed CFG (blocks and the virtual exit).
unsigned components(const Successors &Succ) {
  const unsigned N = Succ.size();
  std::vector<unsigned> Parent(N + 1);
  for (unsigned I = 0; I <= N; ++I)
    Parent[I] = I;
  auto Find = [&](unsigned X) {
    while (Parent[X] != X)
      X = Parent[X];
    return X;
  };
  unsigned Count = N + 1;
  for (unsigned B = 0; B < N; ++B) {
    std::vector<unsigned> To = Succ[B];
    if (To.empty())
      To.push_back(N);
    for (unsigned T : To) {
      unsigned X = Find(B), Y = Find(T);
      if (X != Y)
        Parent[X] = Y, --Count;
    }
  }
  return Count;
}

unsigned realEdges(const Successors &Succ) {
  unsigned E = 0;
  for (const auto &S : Succ)
    E += S.empty() ? 1 : S.size();
  return E;
}

std::string planError(const Successors &Succ, const std::vector<CounterEdge> &Counted) {
  try {
    CounterPlan Plan(Succ, Counted);
  } catch (const std::invalid_argument &E) {
    return E.what();
  }
  ADD_FAILURE() << "the plan was accepted";
  return "";
}

TEST(CounterPlan, RandomCfgsRebuildEveryBlockCount) {
  std::mt19937 Rng(14);
  unsigned Checked = 0, WithCounters = 0;
  for (unsigned Round = 0; Round < 1500; ++Round) {
    RandomCfg G = randomCfg(Rng, /*EntryMayHavePreds=*/Round % 5 == 0);
    std::vector<Counts> Threads;
    for (unsigned T = 0; T < 20; ++T)
      Threads.push_back(walk(G, 1, Rng));
    // Equal weights, the walk's own probabilities, and random weights.
    std::vector<std::vector<double>> Weights;
    if (Round % 3 == 1)
      Weights = G.Prob;
    if (Round % 3 == 2)
      for (const auto &S : G.Succ) {
        Weights.emplace_back();
        for (size_t I = 0; I < std::max<size_t>(S.size(), 1); ++I)
          Weights.back().push_back(std::uniform_real_distribution<double>(0, 10)(Rng));
      }
    for (auto &W : Weights) // exit edges: one weight
      if (W.empty())
        W.push_back(1.0);
    std::vector<CounterEdge> Counted = chooseCountedEdges(G.Succ, Weights);
    ASSERT_EQ(Counted.size(), realEdges(G.Succ) - (G.Succ.size() + 1 - components(G.Succ)))
        << "round " << Round;
    EXPECT_EQ(Counted, chooseCountedEdges(G.Succ, Weights)) << "deterministic";
    CounterPlan Plan(G.Succ, Counted);
    ASSERT_EQ(Plan.numCounters(), Counted.size());
    ASSERT_EQ(Plan.numBlocks(), G.Succ.size());
    for (const Counts &C : Threads)
      ASSERT_EQ(rebuilt(Plan, C, Counted), C.Blocks) << "round " << Round;
    WithCounters += !Counted.empty();
    ++Checked;

    // Counting more edges than needed still determines the counts.
    std::vector<CounterEdge> More = Counted;
    for (unsigned B = 0; B < G.Succ.size() && More.size() == Counted.size(); ++B) {
      CounterEdge E{B, G.Succ[B].empty() ? CounterEdge::ExitEdge : 0};
      if (std::find(More.begin(), More.end(), E) == More.end())
        More.push_back(E);
    }
    CounterPlan MorePlan(G.Succ, More);
    for (const Counts &C : Threads)
      ASSERT_EQ(rebuilt(MorePlan, C, More), C.Blocks) << "round " << Round;

    // Leaving any counter out does not.
    if (!Counted.empty()) {
      std::vector<CounterEdge> Fewer = Counted;
      Fewer.erase(Fewer.begin() + Rng() % Fewer.size());
      EXPECT_NE(planError(G.Succ, Fewer).find("do not determine"), std::string::npos);
    }
  }
  EXPECT_GT(WithCounters, Checked / 2);
}

// Per thread, not summed: each thread's counters give its own counts.
TEST(CounterPlan, PerThreadCounts) {
  std::mt19937 Rng(7);
  for (unsigned Round = 0; Round < 200; ++Round) {
    RandomCfg G = randomCfg(Rng, false);
    std::vector<CounterEdge> Counted = chooseCountedEdges(G.Succ);
    CounterPlan Plan(G.Succ, Counted);
    for (unsigned T = 0; T < 5; ++T) {
      Counts C = walk(G, 1, Rng);
      EXPECT_EQ(rebuilt(Plan, C, Counted), C.Blocks);
      EXPECT_EQ(C.Blocks[0] >= 1, true);
    }
  }
}

TEST(CounterPlan, StraightLineNeedsNoCounters) {
  Successors Line = {{1}, {2}, {}};
  EXPECT_TRUE(chooseCountedEdges(Line).empty());
  CounterPlan Plan(Line, {});
  EXPECT_EQ(Plan.numCounters(), 0u);
  std::vector<uint32_t> Counts(3);
  Plan.blockCounts(nullptr, Counts.data());
  EXPECT_EQ(Counts, (std::vector<uint32_t>{1, 1, 1}));
  for (unsigned B = 0; B < 3; ++B)
    EXPECT_TRUE(Plan.formula(B).Terms.empty());

  CounterPlan One({{}}, {});
  EXPECT_EQ(One.formula(0).Constant, 1u);
}

// if/else, then a loop: one counter per conditional branch, and the hot
// loop edge stays in the tree when weighed heavier.
TEST(CounterPlan, IfElseAndLoop) {
  // 0: br c, 1, 2   1: br 3   2: br 3   3: br 4   4: br c, 4, 5 (self loop)   5: ret
  Successors Succ = {{1, 2}, {3}, {3}, {4}, {4, 5}, {}};
  std::vector<CounterEdge> Counted = chooseCountedEdges(Succ);
  ASSERT_EQ(Counted.size(), 2u);
  // The self loop can never be in the tree.
  EXPECT_NE(std::find(Counted.begin(), Counted.end(), CounterEdge{4, 0}), Counted.end());
  CounterPlan Plan(Succ, Counted);
  // A thread takes the else side and runs the loop block 3 times.
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> Taken = {
      {{0, 1}, 1}, {{2, 0}, 1}, {{3, 0}, 1}, {{4, 0}, 2}, {{4, 1}, 1}};
  std::vector<uint32_t> Counters;
  for (const CounterEdge &E : Counted)
    Counters.push_back(Taken[{E.From, E.Succ}]);
  std::vector<uint32_t> Counts(6);
  Plan.blockCounts(Counters.data(), Counts.data());
  EXPECT_EQ(Counts, (std::vector<uint32_t>{1, 0, 1, 1, 3, 1}));

  // Rotated loop: 0: br 1   1: br c, 2, 3   2: br 1 (latch)   3: ret. Its
  // cycle needs one counter: on the lighter of its two edges.
  Successors Rot = {{1}, {2, 3}, {1}, {}};
  EXPECT_EQ(chooseCountedEdges(Rot, {{1}, {31, 1}, {30}, {1}}),
            (std::vector<CounterEdge>{{2, 0}}));
  EXPECT_EQ(chooseCountedEdges(Rot, {{1}, {30, 1}, {31}, {1}}),
            (std::vector<CounterEdge>{{1, 0}}));
  // Cold edges out of the loop stay in the tree only when the loop's are
  // not heavier.
  EXPECT_EQ(chooseCountedEdges(Rot, {{100}, {1, 100}, {1}, {100}}),
            (std::vector<CounterEdge>{{2, 0}}));
}

TEST(CounterPlan, ParallelEdgesAreCountedApart) {
  // 0: br c, 1, 1   1: ret
  Successors Succ = {{1, 1}, {}};
  std::vector<CounterEdge> Counted = chooseCountedEdges(Succ);
  ASSERT_EQ(Counted, (std::vector<CounterEdge>{{0, 1}}));
  CounterPlan Plan(Succ, Counted);
  uint32_t Counter = 1, Counts[2];
  Plan.blockCounts(&Counter, Counts);
  EXPECT_EQ(Counts[0], 1u);
  EXPECT_EQ(Counts[1], 1u);
  // The two edges between one pair of blocks are a cycle: both uncounted do
  // not say which ran.
  EXPECT_NE(planError({{1, 1}, {2}, {}}, {}).find("closes a cycle"), std::string::npos);
}

TEST(CounterPlan, CountsWrapModulo2To32) {
  // 0: br 1   1: br c, 1, 2   2: ret; the self loop ran 2^32 + 4 times.
  Successors Succ = {{1}, {1, 2}, {}};
  std::vector<CounterEdge> Counted = chooseCountedEdges(Succ);
  ASSERT_EQ(Counted, (std::vector<CounterEdge>{{1, 0}}));
  CounterPlan Plan(Succ, Counted);
  uint32_t Counter = 4, Counts[3];
  Plan.blockCounts(&Counter, Counts);
  EXPECT_EQ(Counts[1], 5u);
  Counter = UINT32_MAX; // 2^32 - 1 back edges, 2^32 runs of block 1: wraps to 0
  Plan.blockCounts(&Counter, Counts);
  EXPECT_EQ(Counts[1], 0u);
}

TEST(CounterPlan, UnreachableBlocksCountZero) {
  // 0: br c, 1, 3   1: ret   2: br 3   3: br c, 1, 2 (2 and 3 a loop);
  // unreachable from the entry: 4: br 1, and 5 <-> 6, a loop nothing
  // enters that leaves to 1.
  Successors Succ = {{1, 3}, {}, {3}, {1, 2}, {1}, {6}, {5, 1}};
  std::vector<CounterEdge> Counted = chooseCountedEdges(Succ);
  CounterPlan Plan(Succ, Counted);
  std::mt19937 Rng(3);
  RandomCfg G{Succ, {{1, 1}, {}, {1}, {1, 1}, {1}, {1}, {1, 1}}};
  for (unsigned T = 0; T < 100; ++T) {
    Counts C = walk(G, 1, Rng);
    EXPECT_EQ(rebuilt(Plan, C, Counted), C.Blocks);
    EXPECT_EQ(C.Blocks[5], 0u);
  }
  // An unreachable loop that never leaves: a component of its own.
  Successors Island = {{1}, {}, {3}, {2}};
  std::vector<CounterEdge> IslandCounted = chooseCountedEdges(Island);
  EXPECT_EQ(IslandCounted.size(), 1u);
  CounterPlan IslandPlan(Island, IslandCounted);
  uint32_t Zero = 0, IslandCounts[4];
  IslandPlan.blockCounts(&Zero, IslandCounts);
  EXPECT_EQ(std::vector<uint32_t>(IslandCounts, IslandCounts + 4),
            (std::vector<uint32_t>{1, 1, 0, 0}));
}

TEST(CounterPlan, Errors) {
  Successors Succ = {{1, 2}, {2}, {}};
  EXPECT_NE(planError(Succ, {{3, 0}}).find("3 blocks"), std::string::npos);
  EXPECT_NE(planError(Succ, {{0, 2}}).find("no such edge"), std::string::npos);
  EXPECT_NE(planError(Succ, {{0, CounterEdge::ExitEdge}}).find("no such edge"),
            std::string::npos);
  EXPECT_NE(planError(Succ, {{1, 1}}).find("no such edge"), std::string::npos);
  EXPECT_NE(planError(Succ, {{0, 1}, {0, 1}}).find("counter 0 too"), std::string::npos);
  EXPECT_NE(planError(Succ, {}).find("do not determine"), std::string::npos);
  EXPECT_NE(planError({{1, 5}, {}}, {{0, 0}}).find("past the last block"), std::string::npos);
  EXPECT_NE(planError({}, {}).find("at least one block"), std::string::npos);
  // A self loop is a cycle by itself.
  EXPECT_NE(planError({{0, 1}, {}}, {}).find("self loop"), std::string::npos);
  EXPECT_THROW(chooseCountedEdges(Succ, {{1, 1}}), std::invalid_argument);
  EXPECT_THROW(chooseCountedEdges(Succ, {{1, 1}, {1, 1}, {1}}), std::invalid_argument);
}

TEST(CounterPlan, TiesBreakByBlockThenSuccessor) {
  // Every edge weighs the same: the tree takes edges in block order, so the
  // last edges to close cycles are counted.
  Successors Succ = {{1, 2}, {2}, {}};
  EXPECT_EQ(chooseCountedEdges(Succ), (std::vector<CounterEdge>{{1, 0}}));
  // NaN weighs nothing.
  EXPECT_EQ(chooseCountedEdges(Succ, {{std::nan(""), 1}, {1}, {1}}),
            (std::vector<CounterEdge>{{0, 0}}));
}

TEST(CounterPlan, PerBlock) {
  CounterPlan Plan = CounterPlan::perBlock(3);
  EXPECT_EQ(Plan.numCounters(), 3u);
  uint32_t Counters[3] = {1, 7, 9}, Counts[3];
  Plan.blockCounts(Counters, Counts);
  EXPECT_EQ(std::vector<uint32_t>(Counts, Counts + 3), (std::vector<uint32_t>{1, 7, 9}));
}

// The notes' "counters": [[block, successor index], ...], -1 for an exit edge.
const char *const Kernel = R"({
  "name": "k", "file": "k.cu", "line": 1, "params": 1,
  "blocks": [
    {"id": 0, "name": "entry", "file": "", "lines": [0, 0], "succ": [1, 2], "mix": {}},
    {"id": 1, "name": "a", "file": "", "lines": [0, 0], "succ": [1, 2], "mix": {}},
    {"id": 2, "name": "b", "file": "", "lines": [0, 0], "succ": [], "mix": {}}
  ],
  "branches": [0, 1]
})";

nlohmann::json kernelWith(const char *Counters) {
  nlohmann::json J = nlohmann::json::parse(Kernel);
  J["counters"] = nlohmann::json::parse(Counters);
  return J;
}

std::string notesError(const nlohmann::json &J) {
  try {
    counterPlan(parseKernelNote(J.dump()));
  } catch (const NotesError &E) {
    return E.what();
  }
  ADD_FAILURE() << "accepted: " << J.dump();
  return "";
}

TEST(CounterPlan, NotesCounters) {
  KernelNote Old = parseKernelNote(Kernel);
  EXPECT_FALSE(Old.HasCounters);
  EXPECT_EQ(serializeKernelNote(Old).find("counters"), std::string::npos)
      << "notes without counters serialize as written (their digest stays)";
  EXPECT_EQ(counterPlan(Old).numCounters(), 3u) << "one counter per block";

  KernelNote K = parseKernelNote(kernelWith("[[0, 1], [1, 0]]").dump());
  ASSERT_TRUE(K.HasCounters);
  EXPECT_EQ(K.Counters, (std::vector<CounterEdge>{{0, 1}, {1, 0}}));
  KernelNote Again = parseKernelNote(serializeKernelNote(K));
  EXPECT_TRUE(Again.HasCounters);
  EXPECT_EQ(Again.Counters, K.Counters);
  CounterPlan Plan = counterPlan(K);
  ASSERT_EQ(Plan.numCounters(), 2u);
  uint32_t Counters[2] = {0, 4}, Counts[3]; // entry -> a, a loops 4 times, -> b
  Plan.blockCounts(Counters, Counts);
  EXPECT_EQ(std::vector<uint32_t>(Counts, Counts + 3), (std::vector<uint32_t>{1, 5, 1}));

  // The exit edge is -1, and an empty list is a kernel without counters.
  KernelNote Exit = parseKernelNote(kernelWith("[[1, 0], [2, -1]]").dump());
  EXPECT_EQ(Exit.Counters[1], (CounterEdge{2, CounterEdge::ExitEdge}));
  EXPECT_NE(serializeKernelNote(Exit).find("[2,-1]"), std::string::npos);
  KernelNote None = parseKernelNote(kernelWith("[]").dump());
  EXPECT_TRUE(None.HasCounters);
  EXPECT_TRUE(None.Counters.empty());

  EXPECT_NE(notesError(kernelWith("3")).find("malformed \"counters\""), std::string::npos);
  EXPECT_NE(notesError(kernelWith("[[0]]")).find("is not [block, successor index]"),
            std::string::npos);
  EXPECT_NE(notesError(kernelWith("[[3, 0]]")).find("past its 3 blocks"), std::string::npos);
  EXPECT_NE(notesError(kernelWith("[[0, 2]]")).find("successor 2 of block 0"), std::string::npos);
  EXPECT_NE(notesError(kernelWith("[[0, -1]]")).find("successor -1 of block 0"),
            std::string::npos);
  EXPECT_NE(notesError(kernelWith("[[0, 1]]")).find("do not determine"), std::string::npos);
  EXPECT_NE(notesError(kernelWith("[[0, 1]]")).find("kernel k"), std::string::npos);
}

} // namespace
} // namespace divopt
