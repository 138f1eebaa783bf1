// What the feature-extraction clone can recompute from a kernel, and the
// code that recomputes it.
//
// The clone must perform only loads the kernel would perform for the same
// thread. A feature load in block B is therefore guarded by the conditions
// of the branches on B's dominator path, evaluated as the kernel evaluates
// them the first time it gets there: a loop's header phis take their value
// from before the loop, and the path may enter loops but not leave them
// (the iteration that leaves is not the first). When the clone's guard fails
// but the kernel reaches the load in a later iteration, the clone writes 0:
// a worse prediction, never an extra load.
#pragma once
#include "KernelMemory.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include <optional>
#include <string>

namespace divopt {

// Reaching a block takes branch Br to go its true (Taken) or false way.
struct GuardStep {
  const llvm::BranchInst *Br;
  bool Taken;
};
using GuardPath = llvm::SmallVector<GuardStep, 4>; // from the entry down

class FeatureSlice {
public:
  FeatureSlice(const llvm::DominatorTree &DT, const llvm::PostDominatorTree &PDT,
               const llvm::LoopInfo &LI, const KernelMemory &Memory)
      : DT(DT), PDT(PDT), LI(LI), Memory(Memory) {}

  // The conditions under which B runs (the first time), each replicable;
  // nullopt with Why set when they cannot be replicated.
  std::optional<GuardPath> guardPath(const llvm::BasicBlock *B, std::string &Why) const;
  // Can the clone recompute V where the kernel uses it, in block At?
  bool replicable(const llvm::Value *V, const llvm::BasicBlock *At, std::string &Why,
                  unsigned Depth = 0) const;

private:
  const llvm::DominatorTree &DT;
  const llvm::PostDominatorTree &PDT;
  const llvm::LoopInfo &LI;
  const KernelMemory &Memory;
};

// Emits at B the computation of a value replicable() accepted. Map holds
// the kernel's arguments -> the clone's, and collects what was emitted
// (valid in the blocks B's insertion point dominates).
llvm::Value *replicate(llvm::IRBuilder<> &B, const llvm::Value *V, const llvm::LoopInfo &LI,
                       llvm::ValueToValueMapTy &Map);

// Intrinsics that only compute from their operands (min, abs, fshl, ...).
bool isPureIntrinsic(const llvm::Value *V);

} // namespace divopt
