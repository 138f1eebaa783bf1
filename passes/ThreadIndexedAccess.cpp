#include "ThreadIndexedAccess.h"
#include "ThreadIndex.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace divopt {
namespace {

// Does V depend on a %tid read through address arithmetic, and through at
// most Loads loads? Bounded: a long chain is more likely data than an index.
bool followsThreadId(const Value *V, SmallPtrSetImpl<const Value *> &Seen, unsigned Depth,
                     unsigned Loads) {
  if (Depth > 24 || !Seen.insert(V).second)
    return false;
  if (threadRegisterRead(V) == ThreadRegister::Tid)
    return true;
  auto Any = [&](auto Operands) {
    for (const Value *Op : Operands)
      if (followsThreadId(Op, Seen, Depth + 1, Loads))
        return true;
    return false;
  };
  if (auto *L = dyn_cast<LoadInst>(V))
    return Loads > 0 && followsThreadId(L->getPointerOperand(), Seen, Depth + 1, Loads - 1);
  if (auto *G = dyn_cast<GEPOperator>(V))
    return Any(G->operands());
  if (auto *O = dyn_cast<Operator>(V))
    if (isa<BinaryOperator>(V) || isa<CastInst>(V) || isa<SelectInst>(V) || isa<PHINode>(V) ||
        O->getOpcode() == Instruction::AddrSpaceCast)
      return Any(O->operands());
  return false;
}

const Value *accessedPointer(const Instruction &I) {
  if (auto *L = dyn_cast<LoadInst>(&I))
    return L->getPointerOperand();
  if (auto *S = dyn_cast<StoreInst>(&I))
    return S->getPointerOperand();
  if (auto *A = dyn_cast<AtomicRMWInst>(&I))
    return A->getPointerOperand();
  return nullptr;
}

bool followsWithLoads(const Value *Ptr, unsigned Loads) {
  SmallPtrSet<const Value *, 32> Seen;
  return followsThreadId(Ptr, Seen, 0, Loads);
}

} // namespace

unsigned threadIndexedAccesses(const BasicBlock &BB) {
  unsigned N = 0;
  for (const Instruction &I : BB)
    if (const Value *Ptr = accessedPointer(I))
      N += followsWithLoads(Ptr, 0);
  return N;
}

unsigned threadIndexedIndirectAccesses(const BasicBlock &BB) {
  unsigned N = 0;
  for (const Instruction &I : BB)
    if (const Value *Ptr = accessedPointer(I))
      N += !followsWithLoads(Ptr, 0) && followsWithLoads(Ptr, 1);
  return N;
}

} // namespace divopt
