#include "CounterFinalPoints.h"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace divopt {

CounterFinalPoints::CounterFinalPoints(Function &F, const BasicBlock *Dispatch)
    : PDT(F), Dispatch(Dispatch) {
  for (scc_iterator<Function *> I = scc_begin(&F); !I.isAtEnd(); ++I)
    if (I.hasCycle())
      for (BasicBlock *BB : *I)
        OnCycle.insert(BB);
}

// A store on edge From -> To goes into To when the edge is its only way in,
// else into a block split onto the edge: possible out of a `br` or a
// `switch`, not out of an indirect branch or a callbr.
static bool canStoreOn(const CfgEdge &E) {
  if (E.second->getUniquePredecessor() == E.first)
    return true;
  const Instruction *TI = E.first->getTerminator();
  return isa<BranchInst>(TI) || isa<SwitchInst>(TI);
}

FinalPoint CounterFinalPoints::compute(BasicBlock *At) const {
  FinalPoint P;
  if (!At)
    return P;
  // The blocks that can still reach At (At itself not: it is on no cycle).
  SmallPtrSet<BasicBlock *, 32> Before;
  SmallVector<BasicBlock *, 32> Work(pred_begin(At), pred_end(At));
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (BB == At || BB == Dispatch || !Before.insert(BB).second)
      continue;
    Work.append(pred_begin(BB), pred_end(BB));
  }
  // In function order, so that the clone is the same at every build.
  for (BasicBlock &BB : *At->getParent()) {
    if (!Before.count(&BB))
      continue;
    SmallPtrSet<BasicBlock *, 4> Seen;
    for (BasicBlock *To : successors(&BB)) {
      if (To == At || Before.count(To) || !Seen.insert(To).second)
        continue;
      if (!canStoreOn({&BB, To}))
        return FinalPoint{};
      P.Bypasses.push_back({&BB, To});
    }
  }
  P.At = At;
  return P;
}

const FinalPoint &CounterFinalPoints::of(BasicBlock *Incremented) {
  BasicBlock *At = Incremented;
  while (At && OnCycle.count(At)) {
    DomTreeNode *N = PDT.getNode(At);
    DomTreeNode *Up = N ? N->getIDom() : nullptr;
    At = Up ? Up->getBlock() : nullptr; // null: the virtual exit
  }
  auto It = ByBlock.find(At);
  if (It == ByBlock.end())
    It = ByBlock.try_emplace(At, compute(At)).first;
  return It->second;
}

} // namespace divopt
