#include "KernelMemory.h"
#include "ReachableFunctions.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/InstIterator.h"
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

// What F writes, itself or through the functions it calls: memory its
// pointer parameters point to (Params), or anything else (Anything). A call
// of a function with a body writes what that function writes through the
// call's arguments; any other call that may write, anything.
struct Writes {
  SmallPtrSet<const Argument *, 8> Params;
  bool Anything = false;
};

const Writes &writesOf(const Function &F, DenseMap<const Function *, Writes> &Known) {
  if (auto It = Known.find(&F); It != Known.end())
    return It->second;
  // Recursion: while F is being summarized, a call back into it writes anything.
  Known[&F].Anything = true;
  Writes W;
  for (const Instruction &I : instructions(F)) {
    SmallVector<const Value *, 4> Pointers;
    if (const Value *Ptr = writtenPointer(I)) {
      Pointers.push_back(Ptr);
    } else if (auto *Call = dyn_cast<CallBase>(&I); Call && !Call->onlyReadsMemory()) {
      if (isa<IntrinsicInst>(Call)) {
        // Intrinsics (barriers, lifetime markers, NVVM atomics) write at most
        // through their pointer arguments.
        for (const Value *Arg : Call->args())
          if (Arg->getType()->isPointerTy())
            Pointers.push_back(Arg);
      } else if (const Function *Callee = ReachableFunctions::followedCallee(*Call)) {
        const Writes &Sub = writesOf(*Callee, Known);
        W.Anything |= Sub.Anything;
        for (const Argument *A : Sub.Params)
          Pointers.push_back(Call->getArgOperand(A->getArgNo()));
      } else {
        W.Anything = true;
      }
    }
    for (const Value *Ptr : Pointers) {
      SmallVector<const Value *, 4> Objects;
      getUnderlyingObjects(Ptr, Objects);
      for (const Value *O : Objects) {
        if (auto *A = dyn_cast<Argument>(O))
          W.Params.insert(A);
        else if (!isa<AllocaInst>(O) && !isa<GlobalVariable>(O))
          W.Anything = true;
      }
    }
  }
  return Known[&F] = std::move(W);
}

} // namespace

KernelMemory::KernelMemory(const Function &Kernel) {
  DenseMap<const Function *, Writes> Known;
  const Writes &W = writesOf(Kernel, Known);
  Written = W.Params;
  WritesAnything = W.Anything;
}

const Argument *KernelMemory::loadedParam(const LoadInst &L) {
  unsigned AS = L.getPointerAddressSpace();
  if (!L.isSimple() || AS == SharedAddrSpace || AS == LocalAddrSpace)
    return nullptr;
  return dyn_cast<Argument>(getUnderlyingObject(L.getPointerOperand()));
}

} // namespace divopt
