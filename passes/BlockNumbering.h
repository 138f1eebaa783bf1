// Stable numbering of a kernel's basic blocks and conditional branches.
//
// Blocks are numbered in function layout order at the point the pass runs
// (after the optimization pipeline), so the numbering names exactly the code
// that executes. The clone's blocks get the numbers of the blocks they were
// cloned from; notes, counters and profiles all use these numbers.
#pragma once
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Function.h"
#include <vector>

namespace divopt {

struct BlockNumbering {
  std::vector<llvm::BasicBlock *> Blocks;        // id -> block
  llvm::DenseMap<const llvm::BasicBlock *, unsigned> Id;
  std::vector<unsigned> BranchBlocks;            // branch k -> id of its block

  explicit BlockNumbering(llvm::Function &F);
  unsigned size() const { return Blocks.size(); }
};

// A block ending in a conditional `br`, or in a `switch` with more than one
// successor: where warps can diverge. "Conditional branch" in the notes and
// the profile means either.
bool endsInConditionalBranch(const llvm::BasicBlock &BB);

} // namespace divopt
