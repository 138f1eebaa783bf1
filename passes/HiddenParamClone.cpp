#include "HiddenParamClone.h"

#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace divopt {

Function *cloneWithHiddenParams(Function &Kernel, StringRef Suffix, ArrayRef<HiddenParam> Hidden,
                                ValueToValueMapTy *VMapOut) {
  SmallVector<Type *, 8> Params(Kernel.getFunctionType()->params());
  for (const HiddenParam &H : Hidden)
    Params.push_back(H.Ty);
  auto *Ty = FunctionType::get(Kernel.getReturnType(), Params, /*isVarArg=*/false);
  Function *Clone = Function::Create(Ty, Kernel.getLinkage(), Kernel.getAddressSpace(),
                                     Kernel.getName() + Suffix, Kernel.getParent());
  ValueToValueMapTy Local;
  ValueToValueMapTy &VMap = VMapOut ? *VMapOut : Local;
  auto NewArg = Clone->arg_begin();
  for (Argument &A : Kernel.args()) {
    NewArg->setName(A.getName());
    VMap[&A] = &*NewArg++;
  }
  for (const HiddenParam &H : Hidden)
    (NewArg++)->setName(H.Name);
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(Clone, &Kernel, VMap, CloneFunctionChangeType::LocalChangesOnly, Returns);
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
