// Which conditional branches decide how often each basic block runs.
//
// Block B is control dependent on block A when one successor of A always
// leads to B and another may avoid it (Ferrante et al.): the classic
// post-dominator construction. Back edges make a loop's body depend on the
// branch that decides whether to iterate again, and early returns make the
// rest of the kernel depend on their condition, so a block's count is a
// function of the conditions of the branches in its transitive closure.
#pragma once
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/PostDominators.h"

namespace divopt {

class ControlDependence {
public:
  explicit ControlDependence(llvm::Function &F);
  // The branch blocks B depends on, directly or through the blocks that
  // decide whether those run; in discovery order.
  llvm::SmallSetVector<const llvm::BasicBlock *, 8> closure(const llvm::BasicBlock *B) const;
  const llvm::PostDominatorTree &postDominators() const { return PDT; }

private:
  llvm::PostDominatorTree PDT;
  llvm::DenseMap<const llvm::BasicBlock *, llvm::SmallSetVector<const llvm::BasicBlock *, 4>>
      Direct;
};

} // namespace divopt
