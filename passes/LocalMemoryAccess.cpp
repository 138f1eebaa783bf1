#include "LocalMemoryAccess.h"
#include "MemoryAccess.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace divopt {
namespace {

// Every object Ptr may point into is an alloca (through GEPs, casts,
// selects and phis: a stack pointer that moves over its array).
bool pointsIntoAllocas(const Value *Ptr) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects, /*LI=*/nullptr, /*MaxLookup=*/0);
  if (Objects.empty())
    return false;
  for (const Value *O : Objects)
    if (!isa<AllocaInst>(O))
      return false;
  return true;
}

} // namespace

std::vector<unsigned> localAccessBytes(const BasicBlock &BB) {
  std::vector<unsigned> Out;
  for (const Instruction &I : BB)
    if (const Value *Ptr = accessedPointer(I); Ptr && pointsIntoAllocas(Ptr))
      Out.push_back(accessBytes(I));
  return Out;
}

uint64_t localFrameBytes(const Function &F) {
  uint64_t Bytes = 0;
  const DataLayout &DL = F.getDataLayout();
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (auto *A = dyn_cast<AllocaInst>(&I))
        if (std::optional<TypeSize> Size = A->getAllocationSize(DL); Size && !Size->isScalable())
          Bytes += Size->getFixedValue();
  return Bytes;
}

} // namespace divopt
