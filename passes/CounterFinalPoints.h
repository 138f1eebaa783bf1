// Device job: where a per-thread counter of the profile clone stops changing
// (for kernels of abi::LargeProfileCounters counters or more; fewer are
// stored at the returns, which measured faster on the suite's small kernels:
// nw's clone 13.0 ms against 15.6, sw's 35.4 against 41.1, H100).
//
// A counter incremented in block X is final at any block P, from X up its
// post-dominator tree, that lies on no cycle of the CFG: every thread that
// ran X passes P, and nothing after P reaches X again (that would be a cycle
// through P). The clone stores the counter at such a P, and its register is
// free from there on; stored at the returns, 121 counters of a kernel of 40
// sequential stages were all live to the end (255 registers and spills,
// 4x the kernel's time on an H100).
//
// A thread that never reaches P never ran X: its count is zero. It is stored
// on the edge where the thread leaves the blocks that can still reach P (a
// bypass). Along any path either P runs once or exactly one bypass is taken,
// so each thread stores each counter exactly once, and every slot is written
// without clearing the buffer first.
#pragma once
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Function.h"

#include <memory>

namespace divopt {

// An edge, as its source and target (a `br %c, %x, %x` has one such edge).
using CfgEdge = std::pair<llvm::BasicBlock *, llvm::BasicBlock *>;

struct FinalPoint {
  // Where the counter is final (store before its terminator); null when no
  // block qualifies or a bypass cannot take a store (an edge out of an
  // indirect branch): then the counter is stored at every return.
  llvm::BasicBlock *At = nullptr;
  llvm::SmallVector<CfgEdge, 2> Bypasses;
};

class CounterFinalPoints {
public:
  // F's CFG as it is now; the answers hold until F's edges change.
  // Dispatch, when not null, is a block that only chooses which copy of the
  // body runs (the clone's entry): no bypass starts there, since the copy it
  // did not choose stores the counters it counts itself.
  CounterFinalPoints(llvm::Function &F, const llvm::BasicBlock *Dispatch);

  // The final point of a counter incremented in Incremented.
  const FinalPoint &of(llvm::BasicBlock *Incremented);

  // Whether BB is on a cycle: otherwise it runs at most once per thread.
  bool onCycle(const llvm::BasicBlock *BB) const { return OnCycle.count(BB); }

private:
  FinalPoint compute(llvm::BasicBlock *At) const;
  llvm::BasicBlock *offCycle(llvm::BasicBlock *BB) const;
  const FinalPoint &at(llvm::BasicBlock *At);

  llvm::PostDominatorTree PDT;
  const llvm::BasicBlock *Dispatch;
  llvm::DenseSet<const llvm::BasicBlock *> OnCycle;
  llvm::DenseMap<llvm::BasicBlock *, std::unique_ptr<FinalPoint>> ByBlock; // by P, and null
};

} // namespace divopt
