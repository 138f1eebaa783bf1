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

// Bb or the first block up its post-dominator tree on no cycle; null at the
// virtual exit.
BasicBlock *CounterFinalPoints::offCycle(BasicBlock *BB) const {
  while (BB && OnCycle.count(BB)) {
    DomTreeNode *N = PDT.getNode(BB);
    DomTreeNode *Up = N ? N->getIDom() : nullptr;
    BB = Up ? Up->getBlock() : nullptr;
  }
  return BB;
}

const FinalPoint &CounterFinalPoints::at(BasicBlock *At) {
  auto It = ByBlock.find(At);
  if (It == ByBlock.end())
    It = ByBlock.try_emplace(At, std::make_unique<FinalPoint>(compute(At))).first;
  return *It->second;
}

// The first candidate is where the count stops changing; a later one (up
// the post-dominator tree, on no cycle) is taken while it has fewer
// bypasses. A count in one arm of an if/else is final in the arm, but then
// the other arm stores a zero and a warp that runs both arms runs both
// stores; at the join every thread of either arm stores it, once per warp
// and together with the join's other counts.
const FinalPoint &CounterFinalPoints::of(BasicBlock *Incremented) {
  const FinalPoint *Best = &at(offCycle(Incremented));
  while (Best->At) {
    DomTreeNode *N = PDT.getNode(Best->At);
    DomTreeNode *Up = N ? N->getIDom() : nullptr;
    BasicBlock *Next = offCycle(Up ? Up->getBlock() : nullptr);
    if (!Next)
      break;
    const FinalPoint &Later = at(Next);
    if (!Later.At || Later.Bypasses.size() >= Best->Bypasses.size())
      break;
    Best = &Later;
  }
  return *Best;
}

} // namespace divopt
