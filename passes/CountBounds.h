// Device job: the most times a block of the profile clone can run in one
// thread, where the loops around it say so.
//
// A block on no cycle of the CFG runs at most once per thread. A block in a
// natural loop runs at most once per iteration of its innermost loop, and a
// loop is entered at most once per iteration of the loop around it; so a
// block runs at most the product, over the loops around it, of each loop's
// largest trip count, where ScalarEvolution finds a constant one (`for (i =
// 0; i <= (x & 3); ++i)`: 4). In a CFG with an irreducible cycle, a block
// can run more than once per iteration of the natural loops around it: there
// every block on a cycle is unbounded.
//
// The clone prices its counts by these bounds: a count that cannot reach
// the u16 marker needs no escape (divopt/Abi.h), and one below 2^k takes k
// bits of the words its hashes sum, one multiply-add rather than four.
#pragma once
#include "llvm/IR/Function.h"

#include <cstdint>
#include <memory>

namespace divopt {

class CountBounds {
public:
  // F's CFG and loops as they are now.
  explicit CountBounds(llvm::Function &F);
  ~CountBounds();

  // The most times BB runs in one thread; UINT64_MAX when unbounded.
  uint64_t maxRuns(const llvm::BasicBlock *BB) const;

private:
  struct Analyses;
  std::unique_ptr<Analyses> A;
};

} // namespace divopt
