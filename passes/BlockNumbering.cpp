#include "BlockNumbering.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace divopt {

bool endsInConditionalBranch(const BasicBlock &BB) {
  const Instruction *Term = BB.getTerminator();
  if (auto *Br = dyn_cast_or_null<BranchInst>(Term))
    return Br->isConditional();
  // A switch whose cases all go one way cannot split a warp.
  if (auto *Sw = dyn_cast_or_null<SwitchInst>(Term))
    return any_of(successors(&BB), [&](const BasicBlock *S) { return S != Sw->getDefaultDest(); });
  return false;
}

BlockNumbering::BlockNumbering(Function &F) {
  for (BasicBlock &BB : F) {
    Id[&BB] = Blocks.size();
    if (endsInConditionalBranch(BB))
      BranchBlocks.push_back(Blocks.size());
    Blocks.push_back(&BB);
  }
}

} // namespace divopt
