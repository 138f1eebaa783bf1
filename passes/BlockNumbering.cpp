#include "BlockNumbering.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace divopt {

bool endsInConditionalBranch(const BasicBlock &BB) {
  auto *Br = dyn_cast_or_null<BranchInst>(BB.getTerminator());
  return Br && Br->isConditional();
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
