#include "MemoryAccess.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace divopt {

const Value *accessedPointer(const Instruction &I) {
  if (auto *L = dyn_cast<LoadInst>(&I))
    return L->getPointerOperand();
  if (auto *S = dyn_cast<StoreInst>(&I))
    return S->getPointerOperand();
  if (auto *A = dyn_cast<AtomicRMWInst>(&I))
    return A->getPointerOperand();
  return nullptr;
}

unsigned accessBytes(const Instruction &I) {
  const DataLayout &DL = I.getDataLayout();
  if (auto *S = dyn_cast<StoreInst>(&I))
    return unsigned(DL.getTypeStoreSize(S->getValueOperand()->getType()));
  return unsigned(DL.getTypeStoreSize(I.getType()));
}

} // namespace divopt
