#include "FeatureExtraction.h"
#include "ThreadIndex.h"
#include "divopt/Abi.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace divopt {
namespace {

// The value as a double, exactly for integers up to 2^53.
Value *toDouble(IRBuilder<> &B, Value *V, StringRef TypeName) {
  llvm::Type *D = B.getDoubleTy();
  if (V->getType()->isFloatingPointTy())
    return B.CreateFPExt(V, D);
  return TypeName.starts_with("u") ? B.CreateUIToFP(V, D) : B.CreateSIToFP(V, D);
}

// The feature's value, or 0 where the kernel would not perform its load.
Value *guardedLoad(IRBuilder<> &B, const Feature &F, Function &Kernel, Function &Clone,
                   const LoopInfo &LI) {
  ValueToValueMapTy Map;
  for (unsigned A = 0; A < Kernel.arg_size(); ++A)
    Map[Kernel.getArg(A)] = Clone.getArg(A);
  const auto *Load = cast<LoadInst>(F.Source);
  if (F.Guard.empty()) // every thread performs the load
    return toDouble(B, replicate(B, Load, LI, Map), F.Type);
  LLVMContext &Ctx = Clone.getContext();
  BasicBlock *Skip = BasicBlock::Create(Ctx, "divopt.skip", &Clone);
  for (const GuardStep &Step : F.Guard) {
    Value *Cond = replicate(B, Step.Br->getCondition(), LI, Map);
    BasicBlock *Next = BasicBlock::Create(Ctx, "divopt.guard", &Clone);
    B.CreateCondBr(Cond, Step.Taken ? Next : Skip, Step.Taken ? Skip : Next);
    B.SetInsertPoint(Next);
  }
  Value *Read = toDouble(B, replicate(B, Load, LI, Map), F.Type);
  BasicBlock *Loaded = B.GetInsertBlock();
  BasicBlock *Join = BasicBlock::Create(Ctx, "divopt.feature", &Clone);
  B.CreateBr(Join);
  B.SetInsertPoint(Skip);
  B.CreateBr(Join);
  B.SetInsertPoint(Join);
  PHINode *Phi = B.CreatePHI(B.getDoubleTy(), 2);
  Phi->addIncoming(Read, Loaded);
  Phi->addIncoming(ConstantFP::get(B.getDoubleTy(), 0.0), Skip);
  return Phi;
}

} // namespace

Function *createFeatureClone(Function &Kernel, const KernelFeatures &Features) {
  if (Features.Features.empty())
    return nullptr;
  LLVMContext &Ctx = Kernel.getContext();
  SmallVector<Type *, 8> Params(Kernel.getFunctionType()->params());
  Params.push_back(PointerType::get(Ctx, /*AddressSpace=*/1));
  auto *Ty = FunctionType::get(Type::getVoidTy(Ctx), Params, /*isVarArg=*/false);
  Function *Clone = Function::Create(Ty, Kernel.getLinkage(), Kernel.getAddressSpace(),
                                     Kernel.getName() + abi::FeatureCloneSuffix,
                                     Kernel.getParent());
  // Same parameter ABI (byval structs) and target attributes as the kernel;
  // its memory effects no longer hold (the clone writes features).
  Clone->copyAttributesFrom(&Kernel);
  Clone->removeFnAttr(Attribute::Memory);
  for (unsigned A = 0; A < Kernel.arg_size(); ++A)
    Clone->getArg(A)->setName(Kernel.getArg(A)->getName());
  Argument *Out = Clone->getArg(Kernel.arg_size());
  Out->setName("divopt.features");

  DominatorTree DT(Kernel);
  LoopInfo LI(DT);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Clone));
  ThreadGeometry G = emitThreadGeometry(B);
  for (unsigned F = 0; F < Features.Features.size(); ++F) {
    const Feature &Feat = Features.Features[F];
    Value *V;
    switch (Feat.K) {
    case Feature::Kind::ThreadId:
      V = B.CreateUIToFP(G.Gtid, B.getDoubleTy());
      break;
    case Feature::Kind::ScalarParam:
      V = toDouble(B, Clone->getArg(Feat.Param), Feat.Type);
      break;
    case Feature::Kind::ParamLoad:
      V = guardedLoad(B, Feat, Kernel, *Clone, LI);
      break;
    }
    Value *Slot = B.CreateAdd(B.CreateMul(B.getInt64(F), G.Threads), G.Gtid);
    B.CreateStore(V, B.CreateInBoundsGEP(B.getDoubleTy(), Out, Slot));
  }
  B.CreateRetVoid();
  return Clone;
}

} // namespace divopt
