#include "ControlDependence.h"

#include "llvm/IR/CFG.h"

using namespace llvm;

namespace divopt {

ControlDependence::ControlDependence(Function &F) : PDT(F) {
  for (BasicBlock &A : F) {
    if (succ_size(&A) < 2)
      continue;
    DomTreeNode *ANode = PDT.getNode(&A);
    if (!ANode)
      continue; // unreachable from any exit walk: nothing to decide
    DomTreeNode *Stop = ANode->getIDom();
    // Every block on the post-dominator path from the successor up to (not
    // including) A's immediate post-dominator runs only when that edge is taken.
    for (BasicBlock *S : successors(&A))
      for (DomTreeNode *R = PDT.getNode(S); R && R != Stop && R->getBlock(); R = R->getIDom())
        Direct[R->getBlock()].insert(&A);
  }
}

SmallSetVector<const BasicBlock *, 8> ControlDependence::closure(const BasicBlock *B) const {
  SmallSetVector<const BasicBlock *, 8> Result;
  SmallVector<const BasicBlock *, 8> Work{B};
  while (!Work.empty()) {
    auto It = Direct.find(Work.pop_back_val());
    if (It == Direct.end())
      continue;
    for (const BasicBlock *A : It->second)
      if (Result.insert(A))
        Work.push_back(A);
  }
  return Result;
}

} // namespace divopt
