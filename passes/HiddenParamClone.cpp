#include "HiddenParamClone.h"

#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace divopt {

Function *cloneWithAppendedParams(Function &F, StringRef Suffix, ArrayRef<HiddenParam> Hidden,
                                  ValueToValueMapTy *VMapOut) {
  SmallVector<Type *, 8> Params(F.getFunctionType()->params());
  for (const HiddenParam &H : Hidden)
    Params.push_back(H.Ty);
  auto *Ty = FunctionType::get(F.getReturnType(), Params, /*isVarArg=*/false);
  Function *Clone = Function::Create(Ty, F.getLinkage(), F.getAddressSpace(),
                                     F.getName() + Suffix, F.getParent());
  ValueToValueMapTy Local;
  ValueToValueMapTy &VMap = VMapOut ? *VMapOut : Local;
  auto NewArg = Clone->arg_begin();
  for (Argument &A : F.args()) {
    NewArg->setName(A.getName());
    VMap[&A] = &*NewArg++;
  }
  for (const HiddenParam &H : Hidden)
    (NewArg++)->setName(H.Name);
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(Clone, &F, VMap, CloneFunctionChangeType::LocalChangesOnly, Returns);
  return Clone;
}

Function *cloneWithHiddenParams(Function &Kernel, StringRef Suffix, ArrayRef<HiddenParam> Hidden,
                                ValueToValueMapTy *VMap) {
  Function *Clone = cloneWithAppendedParams(Kernel, Suffix, Hidden, VMap);
  Clone->setCallingConv(CallingConv::PTX_Kernel);
  return Clone;
}

ClonedBlocks clonedBlocks(const BlockNumbering &Numbering, ValueToValueMapTy &VMap) {
  ClonedBlocks C;
  for (BasicBlock *Orig : Numbering.Blocks)
    C.Blocks.push_back(cast<BasicBlock>(VMap[Orig]));
  for (BasicBlock *BB : C.Blocks)
    if (auto *Ret = dyn_cast<ReturnInst>(BB->getTerminator()))
      C.Returns.push_back(Ret);
  return C;
}

} // namespace divopt
