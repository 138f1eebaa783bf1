#include "CostInstrumentation.h"
#include "HiddenParamClone.h"
#include "ThreadIndex.h"
#include "divopt/Abi.h"

#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace divopt {

Function *createCostClone(Function &Kernel, const BlockNumbering &Numbering) {
  LLVMContext &Ctx = Kernel.getContext();
  PointerType *GlobalPtr = PointerType::get(Ctx, /*AddressSpace=*/1);
  ValueToValueMapTy VMap;
  Function *Clone = cloneWithHiddenParams(
      Kernel, abi::CostCloneSuffix, {{GlobalPtr, "divopt.weights"}, {GlobalPtr, "divopt.cost"}},
      &VMap);
  // K's memory effects no longer hold: the clone also writes cost.
  Clone->removeFnAttr(Attribute::Memory);
  // Every thread reads the same few weights, which nothing writes during the
  // launch: readonly noalias (with !invariant.load on each load) lets NVPTX
  // read them through the non-coherent cache as broadcasts (ld.global.nc).
  unsigned WeightsArg = Kernel.arg_size();
  Clone->addParamAttr(WeightsArg, Attribute::ReadOnly);
  Clone->addParamAttr(WeightsArg, Attribute::NoAlias);
  Clone->addParamAttr(WeightsArg, Attribute::getWithCaptureInfo(Ctx, CaptureInfo::none()));
  Argument *Weights = Clone->getArg(WeightsArg);
  Argument *Cost = Clone->getArg(WeightsArg + 1);
  MDNode *Invariant = MDNode::get(Ctx, {});
  auto LoadWeight = [&](IRBuilder<> &B, unsigned Bb) {
    Value *Ptr = B.CreateConstInBoundsGEP1_64(B.getFloatTy(), Weights, Bb);
    LoadInst *W = B.CreateLoad(B.getFloatTy(), Ptr, "divopt.w" + Twine(Bb));
    W->setMetadata(LLVMContext::MD_invariant_load, Invariant);
    return W;
  };

  auto [Blocks, Returns] = clonedBlocks(Numbering, VMap);

  // The accumulator is an alloca until every add is in place, then a register.
  BasicBlock &Entry = Clone->getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  AllocaInst *Sum = B.CreateAlloca(B.getFloatTy(), nullptr, "divopt.sum");
  // The entry block runs exactly once per thread: the sum starts at its weight.
  B.CreateStore(LoadWeight(B, 0), Sum);
  ThreadGeometry G = emitThreadGeometry(B);
  // Each thread writes only its own slot; the thread count is not needed.
  RecursivelyDeleteTriviallyDeadInstructions(G.Threads);

  for (unsigned Bb = 1; Bb < Blocks.size(); ++Bb) {
    IRBuilder<> At(Blocks[Bb], Blocks[Bb]->getFirstInsertionPt());
    At.CreateStore(At.CreateFAdd(At.CreateLoad(At.getFloatTy(), Sum), LoadWeight(At, Bb)), Sum);
  }
  for (ReturnInst *Ret : Returns) {
    IRBuilder<> At(Ret);
    At.CreateStore(At.CreateLoad(At.getFloatTy(), Sum),
                   At.CreateInBoundsGEP(At.getFloatTy(), Cost, G.Gtid));
  }

  DominatorTree DT(*Clone);
  PromoteMemToReg({Sum}, DT);
  return Clone;
}

} // namespace divopt
