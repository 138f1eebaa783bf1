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

uint64_t costCloneParamBytes(const Function &Kernel, unsigned NumBlocks) {
  const DataLayout &DL = Kernel.getDataLayout();
  uint64_t Bytes = 0;
  for (const Argument &A : Kernel.args()) {
    Type *Ty = A.hasByValAttr() ? A.getParamByValType() : A.getType();
    Bytes = alignTo(Bytes, DL.getABITypeAlign(Ty).value()) + DL.getTypeAllocSize(Ty);
  }
  Bytes = alignTo(Bytes, 4) + uint64_t(NumBlocks) * sizeof(float); // weights
  return alignTo(Bytes, 8) + 8;                                     // cost
}

Function *createCostClone(Function &Kernel, const BlockNumbering &Numbering) {
  LLVMContext &Ctx = Kernel.getContext();
  unsigned NumBlocks = Numbering.Blocks.size();
  if (costCloneParamBytes(Kernel, NumBlocks) > abi::MaxKernelParamBytes)
    return nullptr;
  PointerType *GlobalPtr = PointerType::get(Ctx, /*AddressSpace=*/1);
  PointerType *GenericPtr = PointerType::get(Ctx, /*AddressSpace=*/0);
  ValueToValueMapTy VMap;
  Function *Clone = cloneWithHiddenParams(
      Kernel, abi::CostCloneSuffix, {{GenericPtr, "divopt.weights"}, {GlobalPtr, "divopt.cost"}},
      &VMap);
  // K's memory effects no longer hold: the clone also writes cost.
  Clone->removeFnAttr(Attribute::Memory);
  // The weights are a by-value parameter: they live in the launch's
  // parameter (constant) bank, so each add reads its weight as an operand
  // of the add itself, in no register. Read through a global pointer, the
  // compiler hoisted them out of loops into registers: 8 to 13 more
  // registers than the kernel on the suite, which cost occupancy (mum: 29 ->
  // 39 registers, 64 -> 48 resident warps, a 28% slower clone).
  unsigned WeightsArg = Kernel.arg_size();
  Type *WeightsTy = ArrayType::get(Type::getFloatTy(Ctx), NumBlocks);
  Clone->addParamAttr(WeightsArg, Attribute::getWithByValType(Ctx, WeightsTy));
  Clone->addParamAttr(WeightsArg, Attribute::getWithAlignment(Ctx, Align(4)));
  Clone->addParamAttr(WeightsArg, Attribute::ReadOnly);
  Clone->addParamAttr(WeightsArg, Attribute::NoAlias);
  Argument *Weights = Clone->getArg(WeightsArg);
  Argument *Cost = Clone->getArg(WeightsArg + 1);
  auto LoadWeight = [&](IRBuilder<> &B, unsigned Bb) {
    Value *Ptr = B.CreateConstInBoundsGEP1_64(B.getFloatTy(), Weights, Bb);
    return B.CreateLoad(B.getFloatTy(), Ptr, "divopt.w" + Twine(Bb));
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
