#include "KernelMemory.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace divopt {
namespace {

constexpr unsigned SharedAddrSpace = 3, LocalAddrSpace = 5;

const Value *writtenPointer(const Instruction &I) {
  if (auto *S = dyn_cast<StoreInst>(&I))
    return S->getPointerOperand();
  if (auto *A = dyn_cast<AtomicRMWInst>(&I))
    return A->getPointerOperand();
  if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I))
    return X->getPointerOperand();
  if (auto *M = dyn_cast<AnyMemIntrinsic>(&I))
    return M->getRawDest();
  return nullptr;
}

} // namespace

KernelMemory::KernelMemory(const Function &Kernel) {
  for (const BasicBlock &BB : Kernel)
    for (const Instruction &I : BB) {
      SmallVector<const Value *, 4> Pointers;
      if (const Value *Ptr = writtenPointer(I)) {
        Pointers.push_back(Ptr);
      } else if (auto *Call = dyn_cast<CallBase>(&I); Call && !Call->onlyReadsMemory()) {
        // Intrinsics (barriers, lifetime markers, NVVM atomics) write at most
        // through their pointer arguments; any other call may write anything.
        if (!isa<IntrinsicInst>(Call)) {
          WritesAnything = true;
          continue;
        }
        for (const Value *Arg : Call->args())
          if (Arg->getType()->isPointerTy())
            Pointers.push_back(Arg);
      }
      for (const Value *Ptr : Pointers) {
        SmallVector<const Value *, 4> Objects;
        getUnderlyingObjects(Ptr, Objects);
        for (const Value *O : Objects) {
          if (auto *A = dyn_cast<Argument>(O))
            Written.insert(A);
          else if (!isa<AllocaInst>(O) && !isa<GlobalVariable>(O))
            WritesAnything = true;
        }
      }
    }
}

const Argument *KernelMemory::loadedParam(const LoadInst &L) {
  unsigned AS = L.getPointerAddressSpace();
  if (!L.isSimple() || AS == SharedAddrSpace || AS == LocalAddrSpace)
    return nullptr;
  return dyn_cast<Argument>(getUnderlyingObject(L.getPointerOperand()));
}

} // namespace divopt
