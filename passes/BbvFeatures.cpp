#include "BbvFeatures.h"
#include "ThreadIndex.h"
#include "ControlDependence.h"
#include "FeatureExpr.h"
#include "KernelMemory.h"
#include "KernelNotes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace divopt {
namespace {

constexpr unsigned MaxDepth = 64;

// What a value depends on: feature indices, or why it cannot be predicted.
struct Trace {
  SmallVector<unsigned, 4> Features;
  std::string Why; // non-empty: unpredictable
  const Instruction *Culprit = nullptr;

  static Trace fail(std::string Why, const Instruction *At) { return {{}, std::move(Why), At}; }
  bool ok() const { return Why.empty(); }
  void add(const Trace &Other) {
    for (unsigned F : Other.Features)
      if (!is_contained(Features, F))
        Features.push_back(F);
  }
};

// Condition: a branch condition, whose leaves are features. Address: a
// feature load's address, which may use the thread id and parameters but no
// other loads and nothing that changes between loop iterations.
enum class Mode { Condition, Address };

// Signedness as the kernel uses the value: signed when some use treats it as
// signed (the unroller adds unsigned remainders to any loop bound), else
// unsigned when some use zero-extends it or compares, divides or shifts it
// as unsigned.
std::string typeName(const Value &V) {
  Type *T = V.getType();
  if (T->isFloatTy())
    return "f32";
  if (T->isDoubleTy())
    return "f64";
  if (!T->isIntegerTy())
    return "";
  unsigned Bits = T->getIntegerBitWidth();
  if (Bits == 1)
    return "u8";
  if (Bits != 8 && Bits != 16 && Bits != 32 && Bits != 64)
    return "";
  bool Signed = false, Unsigned = false;
  for (const User *U : V.users()) {
    if (auto *Cmp = dyn_cast<ICmpInst>(U)) {
      Signed |= Cmp->isSigned();
      Unsigned |= Cmp->isUnsigned();
    } else if (auto *I = dyn_cast<Instruction>(U)) {
      unsigned Op = I->getOpcode();
      Signed |= Op == Instruction::SExt || Op == Instruction::SIToFP || Op == Instruction::SDiv ||
                Op == Instruction::SRem || Op == Instruction::AShr;
      Unsigned |= Op == Instruction::ZExt || Op == Instruction::UIToFP || Op == Instruction::UDiv ||
                  Op == Instruction::URem || Op == Instruction::LShr;
    }
  }
  return (Unsigned && !Signed ? "u" : "i") + std::to_string(Bits);
}

class Tracer {
public:
  Tracer(Function &K)
      : DT(K), LI(DT), CD(K), Memory(K), TLII(K.getParent()->getTargetTriple()), TLI(TLII),
        AC(K), SE(K, TLI, AC, DT, LI), Slice(DT, CD.postDominators(), LI, Memory) {}

  // What the count of BB depends on.
  Trace block(const BasicBlock &BB) {
    Trace T;
    if (!DT.isReachableFromEntry(&BB))
      return T; // never runs: count 0 for every thread
    for (const BasicBlock *A : CD.closure(&BB)) {
      Trace C = branch(*A);
      if (!C.ok())
        return C;
      T.add(C);
    }
    return T;
  }

  std::vector<Feature> Candidates;

private:
  DominatorTree DT;
  LoopInfo LI;
  ControlDependence CD;
  KernelMemory Memory;
  TargetLibraryInfoImpl TLII;
  TargetLibraryInfo TLI;
  AssumptionCache AC;
  ScalarEvolution SE;
  FeatureSlice Slice;
  DenseMap<const BasicBlock *, Trace> Branches;
  DenseMap<std::pair<const Value *, int>, Trace> Memo;

  unsigned feature(Feature F) {
    for (unsigned I = 0; I < Candidates.size(); ++I)
      if (Candidates[I].K == F.K && Candidates[I].Source == F.Source)
        return I;
    Candidates.push_back(std::move(F));
    return Candidates.size() - 1;
  }

  Trace branch(const BasicBlock &A) {
    if (auto It = Branches.find(&A); It != Branches.end())
      return It->second;
    const Instruction *Term = A.getTerminator();
    Trace T;
    if (auto *Br = dyn_cast<BranchInst>(Term); Br && Br->isConditional())
      T = trace(Br->getCondition(), Mode::Condition, Term, 0);
    else if (auto *Sw = dyn_cast<SwitchInst>(Term))
      T = trace(Sw->getCondition(), Mode::Condition, Term, 0);
    else
      T = Trace::fail(std::string("its count depends on a ") + Term->getOpcodeName(), Term);
    return Branches[&A] = T;
  }

  // V as used by User (for phis: the incoming block's terminator).
  Trace trace(const Value *V, Mode M, const Instruction *User, unsigned Depth) {
    if (isa<Constant>(V))
      return {};
    if (auto *A = dyn_cast<Argument>(V))
      return argument(*A, M, User);
    auto *I = dyn_cast<Instruction>(V);
    if (!I)
      return Trace::fail("its count depends on something divopt cannot trace", User);
    if (Depth > MaxDepth)
      return Trace::fail("its count depends on too long a computation", I);
    if (const Loop *L = LI.getLoopFor(I->getParent()); L && !L->contains(User->getParent()))
      return Trace::fail("its count depends on a value computed in a loop", I);
    auto Key = std::make_pair(V, int(M));
    if (auto It = Memo.find(Key); It != Memo.end())
      return It->second;
    // A cycle through phis: a value carried around a loop divopt cannot see.
    Memo[Key] = Trace::fail("its count depends on a value computed in a loop", I);
    Trace T = instruction(*I, M, Depth);
    return Memo[Key] = T;
  }

  Trace argument(const Argument &A, Mode M, const Instruction *User) {
    if (M == Mode::Address)
      return {};
    if (A.getType()->isPointerTy())
      return Trace::fail("its count depends on the value of pointer parameter " + paramName(A),
                         User);
    std::string Type = typeName(A);
    if (Type.empty())
      return Trace::fail("its count depends on parameter " + paramName(A) +
                             ", which is not a plain number",
                         User);
    Trace T;
    T.Features.push_back(
        feature({Feature::Kind::ScalarParam, A.getArgNo(), Type, paramName(A), &A, {}}));
    return T;
  }

  Trace operands(const Instruction &I, Mode M, unsigned Depth) {
    Trace T;
    for (const Value *Op : I.operands()) {
      Trace O = trace(Op, M, &I, Depth + 1);
      if (!O.ok())
        return O;
      T.add(O);
    }
    return T;
  }

  Trace instruction(const Instruction &I, Mode M, unsigned Depth) {
    if (threadRegisterRead(&I)) {
      Trace T;
      if (M == Mode::Condition)
        T.Features.push_back(feature({Feature::Kind::ThreadId, 0, "", "tid", nullptr, {}}));
      return T;
    }
    if (auto *Phi = dyn_cast<PHINode>(&I))
      return phi(*Phi, M, Depth);
    if (auto *Load = dyn_cast<LoadInst>(&I))
      return load(*Load, M, Depth);
    if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
      return Trace::fail("its count depends on an atomic", &I);
    if (auto *Call = dyn_cast<CallBase>(&I)) {
      if (isPureIntrinsic(Call))
        return operands(I, M, Depth);
      const Function *Callee = Call->getCalledFunction();
      return Trace::fail("its count depends on a call to " +
                             (Callee ? Callee->getName().str() : std::string("a pointer")),
                         &I);
    }
    if (isa<BinaryOperator>(I) || isa<CastInst>(I) || isa<CmpInst>(I) || isa<SelectInst>(I) ||
        isa<GetElementPtrInst>(I) || isa<FreezeInst>(I) || isa<UnaryOperator>(I) ||
        isa<ExtractValueInst>(I))
      return operands(I, M, Depth);
    return Trace::fail(std::string("its count depends on a ") + I.getOpcodeName() +
                           " instruction",
                       &I);
  }

  Trace phi(const PHINode &Phi, Mode M, unsigned Depth) {
    const Loop *L = LI.getLoopFor(Phi.getParent());
    if (L && L->getHeader() == Phi.getParent()) {
      if (M == Mode::Address)
        return Trace::fail("its count depends on a load whose address changes in a loop", &Phi);
      // An induction variable: the count follows from its start, step and
      // the loop's bound. Any other recurrence is opaque.
      auto *Rec = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(const_cast<PHINode *>(&Phi)));
      if (!Rec || !Rec->isAffine() || Rec->getLoop() != L)
        return Trace::fail("its count depends on a value computed in a loop", &Phi);
      return scev(Rec, Phi, Depth);
    }
    // Which value arrives depends on the path taken: the incoming values and
    // the branches that decide the incoming blocks.
    Trace T;
    for (unsigned In = 0; In < Phi.getNumIncomingValues(); ++In) {
      const BasicBlock *From = Phi.getIncomingBlock(In);
      Trace V = trace(Phi.getIncomingValue(In), M, From->getTerminator(), Depth + 1);
      if (!V.ok())
        return V;
      T.add(V);
      SmallSetVector<const BasicBlock *, 8> Deciders = CD.closure(From);
      if (succ_size(From) > 1)
        Deciders.insert(From);
      for (const BasicBlock *A : Deciders) {
        const auto *Br = dyn_cast<BranchInst>(A->getTerminator());
        if (!Br || !Br->isConditional())
          return Trace::fail("its count depends on a value chosen by a " +
                                 std::string(A->getTerminator()->getOpcodeName()),
                             A->getTerminator());
        Trace C = trace(Br->getCondition(), M, Br, Depth + 1);
        if (!C.ok())
          return C;
        T.add(C);
      }
    }
    return T;
  }

  Trace scev(const SCEV *S, const PHINode &Phi, unsigned Depth) {
    if (isa<SCEVConstant>(S))
      return {};
    if (auto *U = dyn_cast<SCEVUnknown>(S))
      return trace(U->getValue(), Mode::Condition, &Phi, Depth + 1);
    if (auto *Rec = dyn_cast<SCEVAddRecExpr>(S); Rec && !Rec->isAffine())
      return Trace::fail("its count depends on a value computed in a loop", &Phi);
    if (!isa<SCEVNAryExpr>(S) && !isa<SCEVCastExpr>(S) && !isa<SCEVUDivExpr>(S))
      return Trace::fail("its count depends on a value computed in a loop", &Phi);
    Trace T;
    for (const SCEV *Op : S->operands()) {
      Trace O = scev(Op, Phi, Depth + 1);
      if (!O.ok())
        return O;
      T.add(O);
    }
    return T;
  }

  Trace load(const LoadInst &Load, Mode M, unsigned Depth) {
    if (M == Mode::Address)
      return Trace::fail("its count depends on a load whose address is itself loaded", &Load);
    if (Load.isAtomic() || Load.isVolatile())
      return Trace::fail("its count depends on an atomic or volatile load", &Load);
    const Argument *Param = KernelMemory::loadedParam(Load);
    if (!Param)
      return Trace::fail("its count depends on memory that is not a pointer parameter's "
                         "(shared, local or a global variable)",
                         &Load);
    std::string Text = loadText(Load);
    if (Memory.written(Param))
      return Trace::fail("its count depends on " + Text + ", memory the kernel writes", &Load);
    std::string Type = typeName(Load);
    if (Type.empty())
      return Trace::fail("its count depends on " + Text + ", which is not a plain number", &Load);
    Trace Address = trace(Load.getPointerOperand(), Mode::Address, &Load, Depth + 1);
    if (!Address.ok())
      return Address;
    std::string Why;
    std::optional<GuardPath> Guard = Slice.guardPath(Load.getParent(), Why);
    if (!Guard || !Slice.replicable(Load.getPointerOperand(), Load.getParent(), Why))
      return Trace::fail("its count depends on " + Text +
                             ", which the feature kernel cannot read safely: " + Why,
                         &Load);
    Trace T;
    T.Features.push_back(feature(
        {Feature::Kind::ParamLoad, Param->getArgNo(), Type, Text, &Load, std::move(*Guard)}));
    return T;
  }
};

// Phis and code the optimizer moved carry no line: blame a located use (the
// compare of a loop condition), else the first located instruction of the
// same block.
const Instruction *located(const Instruction *I) {
  if (!I || userLocation(*I))
    return I;
  for (const User *U : I->users())
    if (auto *Use = dyn_cast<Instruction>(U); Use && userLocation(*Use))
      return Use;
  for (const Instruction &Other : *I->getParent())
    if (userLocation(Other))
      return &Other;
  return I;
}

} // namespace

unsigned KernelFeatures::unpredictableBlocks() const {
  unsigned N = 0;
  for (const BlockFeatures &B : Blocks)
    N += !B.Predictable;
  return N;
}

const char *featureKindName(Feature::Kind K) {
  switch (K) {
  case Feature::Kind::ThreadId:
    return "tid";
  case Feature::Kind::ScalarParam:
    return "param";
  case Feature::Kind::ParamLoad:
    return "load";
  }
  return "?";
}

KernelFeatures analyzeFeatures(Function &Kernel, const BlockNumbering &Numbering) {
  Tracer T(Kernel);
  KernelFeatures Result;
  for (const BasicBlock *BB : Numbering.Blocks) {
    Trace Block = T.block(*BB);
    BlockFeatures B;
    B.Predictable = Block.ok();
    B.Reason = Block.Why;
    B.Culprit = located(Block.Culprit);
    if (B.Predictable)
      B.Features.assign(Block.Features.begin(), Block.Features.end()); // candidate indices
    Result.Blocks.push_back(std::move(B));
  }
  // Keep the candidates some predictable block uses, in discovery order.
  std::vector<bool> Used(T.Candidates.size());
  for (const BlockFeatures &B : Result.Blocks)
    for (unsigned F : B.Features)
      Used[F] = true;
  std::vector<unsigned> Index(T.Candidates.size());
  for (unsigned F = 0; F < T.Candidates.size(); ++F)
    if (Used[F]) {
      Index[F] = Result.Features.size();
      Result.Features.push_back(T.Candidates[F]);
    }
  for (BlockFeatures &B : Result.Blocks) {
    for (unsigned &F : B.Features)
      F = Index[F];
    llvm::sort(B.Features);
  }
  return Result;
}

} // namespace divopt
