#include "FeatureSlice.h"
#include "ThreadIndex.h"

#include "llvm/IR/CFG.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace divopt {
namespace {

constexpr unsigned MaxDepth = 48; // a longer chain is data, not an index or a bound

// The phi's value the first time its loop's header runs, or null when it is
// not a loop header phi.
const Value *valueBeforeLoop(const PHINode &Phi, const LoopInfo &LI) {
  const Loop *L = LI.getLoopFor(Phi.getParent());
  if (!L || L->getHeader() != Phi.getParent())
    return nullptr;
  const BasicBlock *Pred = L->getLoopPredecessor();
  return Pred ? Phi.getIncomingValueForBlock(Pred) : nullptr;
}

bool isPlainComputation(const Instruction &I) {
  return isa<BinaryOperator>(I) || isa<CastInst>(I) || isa<CmpInst>(I) || isa<SelectInst>(I) ||
         isa<GetElementPtrInst>(I) || isa<FreezeInst>(I) || isa<UnaryOperator>(I) ||
         isa<ExtractValueInst>(I) || threadRegisterRead(&I) || isPureIntrinsic(&I);
}

} // namespace

bool isPureIntrinsic(const Value *V) {
  auto *II = dyn_cast<IntrinsicInst>(V);
  // Special registers other than the thread index (%laneid, %smid, %clock)
  // differ between runs or between the kernel and its clone.
  return II && II->doesNotAccessMemory() && !II->isConvergent() &&
         !II->getCalledFunction()->getName().starts_with("llvm.nvvm.read.ptx.sreg.");
}

bool FeatureSlice::replicable(const Value *V, const BasicBlock *At, std::string &Why,
                              unsigned Depth) const {
  if (isa<Constant>(V) || isa<Argument>(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > MaxDepth) {
    Why = "its guard is too long a computation";
    return false;
  }
  const BasicBlock *Home = I->getParent();
  if (const Loop *L = LI.getLoopFor(Home); L && !L->contains(At)) {
    Why = "its guard uses a value computed in a loop";
    return false;
  }
  if (auto *Phi = dyn_cast<PHINode>(I)) {
    const Value *Before = valueBeforeLoop(*Phi, LI);
    if (!Before) {
      Why = "its guard uses a value merged from several paths";
      return false;
    }
    return replicable(Before, LI.getLoopFor(Home)->getLoopPredecessor(), Why, Depth + 1);
  }
  if (auto *Load = dyn_cast<LoadInst>(I)) {
    const Argument *Param = KernelMemory::loadedParam(*Load);
    if (!Param || Memory.written(Param)) {
      Why = "its guard reads memory the kernel writes or that is not a parameter's";
      return false;
    }
    return replicable(Load->getPointerOperand(), Home, Why, Depth + 1);
  }
  if (!isPlainComputation(*I)) {
    Why = std::string("its guard uses a ") + I->getOpcodeName() + " instruction";
    return false;
  }
  for (const Value *Op : I->operands())
    if (!replicable(Op, Home, Why, Depth + 1))
      return false;
  return true;
}

std::optional<GuardPath> FeatureSlice::guardPath(const BasicBlock *B, std::string &Why) const {
  GuardPath Steps; // collected bottom-up
  const BasicBlock *Entry = &B->getParent()->getEntryBlock();
  for (const BasicBlock *Cur = B; Cur != Entry;) {
    const DomTreeNode *Node = DT.getNode(Cur);
    if (!Node || !Node->getIDom()) {
      Why = "it is unreachable";
      return std::nullopt;
    }
    const BasicBlock *D = Node->getIDom()->getBlock();
    const Loop *InCur = LI.getLoopFor(Cur), *InD = LI.getLoopFor(D);
    if (InD && !InD->contains(Cur)) {
      Why = "it is read after leaving a loop";
      return std::nullopt;
    }
    bool Enters = InCur && InCur->getHeader() == Cur && !InCur->contains(D);
    if (Enters ? InCur->getLoopPredecessor() == D : Cur->getSinglePredecessor() == D) {
      // Cur runs when D's branch goes its way.
      auto *Br = dyn_cast<BranchInst>(D->getTerminator());
      if (!Br) {
        Why = std::string("it is reached through a ") + D->getTerminator()->getOpcodeName();
        return std::nullopt;
      }
      if (Br->isConditional() && Br->getSuccessor(0) != Br->getSuccessor(1)) {
        if (!replicable(Br->getCondition(), D, Why))
          return std::nullopt;
        Steps.push_back({Br, Br->getSuccessor(0) == Cur});
      }
    } else if (!PDT.dominates(Cur, D) || (InCur && InCur->contains(D))) {
      // Cur merges paths, not all of which pass through it (or, inside a
      // loop, it may first run in a later iteration).
      Why = "it is reached along several paths";
      return std::nullopt;
    }
    Cur = D;
  }
  std::reverse(Steps.begin(), Steps.end());
  return Steps;
}

Value *replicate(IRBuilder<> &B, const Value *V, const LoopInfo &LI, ValueToValueMapTy &Map) {
  if (auto It = Map.find(V); It != Map.end())
    return It->second;
  if (isa<Constant>(V))
    return const_cast<Value *>(V);
  auto *I = cast<Instruction>(V);
  Value *Copy;
  if (auto *Phi = dyn_cast<PHINode>(I)) {
    Copy = replicate(B, valueBeforeLoop(*Phi, LI), LI, Map);
  } else {
    Instruction *C = I->clone();
    for (unsigned Op = 0; Op < I->getNumOperands(); ++Op)
      C->setOperand(Op, replicate(B, I->getOperand(Op), LI, Map));
    C->setDebugLoc(DebugLoc()); // the kernel's locations do not belong to the clone
    B.Insert(C, I->getName());
    Copy = C;
  }
  Map[V] = Copy;
  return Copy;
}

} // namespace divopt
