#include "GuardDivergence.h"
#include "KernelNotes.h"
#include "Kernels.h"
#include "ReachableFunctions.h"
#include "ThreadIndex.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace divopt {
namespace {

// The special registers the launch shares: the block and grid sizes. Every
// other one (%tid, %ctaid, %laneid, %clock, ...) varies between threads.
bool sharedRegister(const IntrinsicInst &II) {
  std::optional<ThreadRegister> R = threadRegisterRead(&II);
  return R == ThreadRegister::Ntid || R == ThreadRegister::Nctaid;
}

bool isRead(const Value *V, Intrinsic::ID Id) {
  const auto *II = dyn_cast<IntrinsicInst>(V->stripPointerCasts());
  return II && II->getIntrinsicID() == Id;
}

const Value *stripExtensions(const Value *V) {
  while (isa<ZExtInst>(V) || isa<SExtInst>(V))
    V = cast<CastInst>(V)->getOperand(0);
  return V;
}

std::string atLine(const Instruction &I) {
  unsigned Line = userLine(I);
  return Line ? " at line " + std::to_string(Line) : "";
}

class Analysis {
public:
  explicit Analysis(const Function &K) : K(K) {}

  DivergenceVerdict run() {
    DivergenceVerdict V;
    if (!calleesAreStraight(V.Reason))
      return V;
    findVarying();
    for (const BasicBlock &BB : K) {
      const Instruction *T = BB.getTerminator();
      std::string At = atLine(*T);
      if (const auto *Br = dyn_cast<BranchInst>(T); Br && Br->isConditional()) {
        if (!varies(Br->getCondition()))
          continue;
        if (!guard(Br->getCondition(), V.GuardCompares)) {
          V.GuardCompares = 0;
          V.Reason = "the branch" + At + " depends on the thread other than by comparing "
                     "blockIdx.x * blockDim.x + threadIdx.x with a value the launch shares";
          return V;
        }
      } else if (const auto *Sw = dyn_cast<SwitchInst>(T); Sw && varies(Sw->getCondition())) {
        V.GuardCompares = 0;
        V.Reason = "the switch" + At + " depends on the thread";
        return V;
      } else if (!isa<BranchInst>(T) && !isa<SwitchInst>(T) && !isa<ReturnInst>(T) &&
                 !isa<UnreachableInst>(T)) {
        V.GuardCompares = 0;
        V.Reason = std::string("it ends a block with ") + T->getOpcodeName();
        return V;
      }
    }
    V.GuardsOnly = true;
    return V;
  }

private:
  const Function &K;
  DenseSet<const Value *> Varying;
  SmallPtrSet<const BasicBlock *, 16> Joins;

  bool varies(const Value *V) const { return Varying.contains(V); }

  // A callee that branches could diverge inside; one that does not adds
  // nothing (its result varies, as every call's does).
  bool calleesAreStraight(std::string &Why) const {
    ReachableFunctions Reach(K);
    for (const Function *F : Reach.functions()) {
      if (F == &K)
        continue;
      for (const BasicBlock &BB : *F)
        if (BB.getTerminator()->getNumSuccessors() > 1) {
          Why = "it calls " + demangledName(F->getName()) + ", which branches";
          return false;
        }
    }
    return true;
  }

  // Memory no thread writes while the kernel runs: its read-only by-value
  // parameters (a struct of sizes) and __constant__ variables.
  bool launchConstant(const LoadInst &L) const {
    const Value *Object = getUnderlyingObject(L.getPointerOperand());
    if (const auto *A = dyn_cast<Argument>(Object))
      return A->getParent() == &K && A->hasByValAttr() && A->onlyReadsMemory();
    if (const auto *G = dyn_cast<GlobalVariable>(Object))
      return G->isConstant() || G->getAddressSpace() == 4; // nvptx's constant space
    return false;
  }

  bool source(const Instruction &I) const {
    if (const auto *L = dyn_cast<LoadInst>(&I))
      return L->isVolatile() || L->isAtomic() || !launchConstant(*L);
    if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I) || isa<AllocaInst>(I))
      return true;
    if (const auto *II = dyn_cast<IntrinsicInst>(&I)) {
      if (II->getCalledFunction()->getName().starts_with("llvm.nvvm.read.ptx.sreg."))
        return !sharedRegister(*II);
      return !II->doesNotAccessMemory();
    }
    return isa<CallBase>(I);
  }

  // Blocks that paths from two successors of Br's block both reach: a phi
  // there takes a value that depends on the side a thread went.
  void addJoins(const Instruction &Br) {
    DenseMap<const BasicBlock *, unsigned> ReachedFrom;
    for (unsigned S = 0; S < Br.getNumSuccessors(); ++S) {
      SmallVector<const BasicBlock *, 16> Work{Br.getSuccessor(S)};
      SmallPtrSet<const BasicBlock *, 32> Seen{Br.getSuccessor(S)};
      while (!Work.empty()) {
        const BasicBlock *B = Work.pop_back_val();
        if (++ReachedFrom[B] == 2)
          Joins.insert(B);
        for (const BasicBlock *Succ : successors(B))
          if (Seen.insert(Succ).second)
            Work.push_back(Succ);
      }
    }
  }

  void findVarying() {
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (const Instruction &I : instructions(K)) {
        if (varies(&I))
          continue;
        bool V = source(I) || (isa<PHINode>(I) && Joins.contains(I.getParent())) ||
                 any_of(I.operands(), [&](const Use &U) { return varies(U.get()); });
        if (!V)
          continue;
        Varying.insert(&I);
        Changed = true;
      }
      for (const BasicBlock &BB : K) {
        const Instruction *T = BB.getTerminator();
        const Value *Cond = nullptr;
        if (const auto *Br = dyn_cast<BranchInst>(T); Br && Br->isConditional())
          Cond = Br->getCondition();
        else if (const auto *Sw = dyn_cast<SwitchInst>(T))
          Cond = Sw->getCondition();
        if (!Cond || !varies(Cond))
          continue;
        size_t Before = Joins.size();
        addJoins(*T);
        Changed |= Joins.size() != Before;
      }
    }
  }

  // blockIdx.x * blockDim.x + threadIdx.x, in either order, each read
  // possibly extended.
  bool globalX(const Value *V) const {
    const auto *Add = dyn_cast<BinaryOperator>(stripExtensions(V));
    if (!Add || Add->getOpcode() != Instruction::Add)
      return false;
    for (unsigned Tid = 0; Tid < 2; ++Tid) {
      const auto *Mul = dyn_cast<BinaryOperator>(stripExtensions(Add->getOperand(1 - Tid)));
      if (!isRead(stripExtensions(Add->getOperand(Tid)), Intrinsic::nvvm_read_ptx_sreg_tid_x) ||
          !Mul || Mul->getOpcode() != Instruction::Mul)
        continue;
      const Value *A = stripExtensions(Mul->getOperand(0)), *B = stripExtensions(Mul->getOperand(1));
      if ((isRead(A, Intrinsic::nvvm_read_ptx_sreg_ctaid_x) &&
           isRead(B, Intrinsic::nvvm_read_ptx_sreg_ntid_x)) ||
          (isRead(B, Intrinsic::nvvm_read_ptx_sreg_ctaid_x) &&
           isRead(A, Intrinsic::nvvm_read_ptx_sreg_ntid_x)))
        return true;
    }
    return false;
  }

  // A grid-stride loop's index: from an increasing start, a uniform step
  // each iteration. In any one iteration it is the start plus the same
  // amount in every thread still in the loop, so its comparisons split them
  // as the start's would.
  bool strideIndex(const PHINode &Phi) const {
    if (Phi.getNumIncomingValues() != 2)
      return false;
    for (unsigned Start = 0; Start < 2; ++Start) {
      const auto *Step = dyn_cast<BinaryOperator>(Phi.getIncomingValue(1 - Start));
      if (Step && Step->getOpcode() == Instruction::Add &&
          ((Step->getOperand(0) == &Phi && !varies(Step->getOperand(1))) ||
           (Step->getOperand(1) == &Phi && !varies(Step->getOperand(0)))) &&
          increasing(Phi.getIncomingValue(Start)))
        return true;
    }
    return false;
  }

  // Increasing in the global x index, launch-uniform otherwise.
  bool increasing(const Value *V) const {
    V = stripExtensions(V);
    if (globalX(V))
      return true;
    if (const auto *Phi = dyn_cast<PHINode>(V))
      return strideIndex(*Phi);
    if (const auto *GEP = dyn_cast<GetElementPtrInst>(V)) {
      unsigned Following = 0;
      bool Increasing = true;
      for (const Use &Index : GEP->indices())
        if (varies(Index.get())) {
          ++Following;
          Increasing = Increasing && increasing(Index.get());
        }
      return Increasing && Following == 1 && !varies(GEP->getPointerOperand());
    }
    const auto *Op = dyn_cast<BinaryOperator>(V);
    if (!Op)
      return false;
    const Value *L = Op->getOperand(0), *R = Op->getOperand(1);
    const auto *C = dyn_cast<ConstantInt>(R);
    switch (Op->getOpcode()) {
    case Instruction::Add:
      return (increasing(L) && !varies(R)) || (increasing(R) && !varies(L));
    case Instruction::Sub:
      return increasing(L) && !varies(R);
    case Instruction::Mul:
      if (const auto *CL = dyn_cast<ConstantInt>(L); CL && !C)
        return CL->getValue().isStrictlyPositive() && increasing(R);
      return C && C->getValue().isStrictlyPositive() && increasing(L);
    case Instruction::Shl:
      return C && increasing(L);
    default:
      return false;
    }
  }

  // A condition whose true threads, in index order, change side a bounded
  // number of times: comparisons of an increasing index with a uniform value,
  // combined by and, or and not, with uniform conditions.
  bool guard(const Value *Cond, unsigned &Compares) const {
    if (!varies(Cond))
      return true;
    if (const auto *Cmp = dyn_cast<ICmpInst>(Cond)) {
      const Value *L = Cmp->getOperand(0), *R = Cmp->getOperand(1);
      if (!((increasing(L) && !varies(R)) || (increasing(R) && !varies(L))))
        return false;
      ++Compares;
      return true;
    }
    if (const auto *Op = dyn_cast<BinaryOperator>(Cond);
        Op && (Op->getOpcode() == Instruction::And || Op->getOpcode() == Instruction::Or ||
               Op->getOpcode() == Instruction::Xor))
      return guard(Op->getOperand(0), Compares) && guard(Op->getOperand(1), Compares);
    if (const auto *Sel = dyn_cast<SelectInst>(Cond)) // a && b, a || b
      return guard(Sel->getCondition(), Compares) && guard(Sel->getTrueValue(), Compares) &&
             guard(Sel->getFalseValue(), Compares);
    return false;
  }
};

} // namespace

DivergenceVerdict guardDivergence(const Function &Kernel) { return Analysis(Kernel).run(); }

} // namespace divopt
