// Where the profile clone puts its per-thread counters, and how every basic
// block's count follows from them.
//
// Counting every block is wasteful: flow is conserved (a block runs as often
// as control enters it, and leaves it as often), so counters on the edges off
// a spanning tree of the CFG determine every block's count, as in LLVM's PGO
// instrumentation (Knuth's placement). The CFG is closed by a virtual exit
// node: each block without successors (a return, an `unreachable`) has an edge
// to it, and the edge exit -> entry runs exactly once per thread, so it needs
// no counter. A kernel then needs one counter per extra successor of its
// blocks, about one per conditional branch, where it needed one per block.
//
// The pass chooses the counted edges (chooseCountedEdges), records them in the
// notes ("counters", docs/notes-format.md), and counts them; readers rebuild
// every block's count with CounterPlan. Shared by the pass and the readers so
// that both sides agree on what a counter means.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace divopt {

// An edge of the kernel's CFG, as the notes number blocks: the Succ-th
// successor of block From (an index into its "succ" list, so that the two
// edges of `br %c, %x, %x` stay apart), or, with Succ == ExitEdge, the edge
// from a block without successors to the virtual exit.
struct CounterEdge {
  static constexpr uint32_t ExitEdge = UINT32_MAX;
  uint32_t From = 0;
  uint32_t Succ = 0;
  bool operator==(const CounterEdge &O) const { return From == O.From && Succ == O.Succ; }
};

// Successors of every block (the notes' "succ" lists, block ids).
using Successors = std::vector<std::vector<unsigned>>;

// The edges that get a counter: those off a maximum spanning tree of the
// closed CFG, heavier edges first into the tree, so that the hot edges (in
// loops) are derived rather than counted. Weights[b][s] estimates how often
// the s-th successor edge of b runs, and Weights[b] has one more entry, last,
// for its exit edge when b has no successors; empty Weights weigh every edge
// the same. Deterministic: ties break by block id, then successor index.
// Counted edges come in that order too. A CFG in several parts (a loop no
// path enters) gets a tree per part, hence one more counter per extra part.
// Throws std::invalid_argument when a successor or Weights do not fit Succ.
std::vector<CounterEdge> chooseCountedEdges(const Successors &Succ,
                                            const std::vector<std::vector<double>> &Weights = {});

// count[b] = Constant + sum of Coefficient * counter[c] over Terms, in
// arithmetic modulo 2^32, which is exact whenever the true count fits in 32
// bits (as block counters were before).
struct BlockCountFormula {
  uint32_t Constant = 0;
  std::vector<std::pair<uint32_t, uint32_t>> Terms; // (counter, coefficient mod 2^32)
};

class CounterPlan {
public:
  // The plan for counters on Counted (counter c counts edge Counted[c]).
  // Throws std::invalid_argument naming the problem when an edge does not
  // exist, is counted twice, or the counted edges do not determine every
  // block's count: the uncounted edges must not close a cycle (the exit ->
  // entry edge left out). Counting more edges than needed is allowed.
  CounterPlan(const Successors &Succ, const std::vector<CounterEdge> &Counted);
  // One counter per block (counter b counts block b): notes written before
  // the pass placed counters on edges.
  static CounterPlan perBlock(unsigned NumBlocks);

  unsigned numCounters() const { return NumCounters; }
  unsigned numBlocks() const { return unsigned(Blocks.size()); }
  const BlockCountFormula &formula(unsigned Block) const { return Blocks[Block]; }
  // Counts[b] for every block from one thread's Counters[c].
  void blockCounts(const uint32_t *Counters, uint32_t *Counts) const;

private:
  CounterPlan() = default;
  unsigned NumCounters = 0;
  std::vector<BlockCountFormula> Blocks;
};

} // namespace divopt
