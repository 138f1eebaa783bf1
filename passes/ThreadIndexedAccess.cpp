#include "ThreadIndexedAccess.h"
#include "MemoryAccess.h"
#include "ThreadIndex.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/Operator.h"

#include <cstdint>
#include <cstdlib>
#include <optional>

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

bool followsWithLoads(const Value *Ptr, unsigned Loads) {
  SmallPtrSet<const Value *, 32> Seen;
  return followsThreadId(Ptr, Seen, 0, Loads);
}

// How much V grows when %tid.x grows by one (bytes for a pointer): nullopt
// where it is not a constant. A value that does not follow the thread id
// does not grow; other thread registers (%tid.y, %ctaid) are the same for a
// warp's neighbouring lanes. InProgress holds the phis being followed: a
// loop's own back edge (i = phi [tid, ...], [i + 8, ...]) adds nothing.
class LaneStep {
public:
  explicit LaneStep(const DataLayout &DL) : DL(DL) {}

  std::optional<int64_t> of(const Value *V, unsigned Depth = 0) {
    if (Depth > 24)
      return std::nullopt;
    if (!followsWithLoads(V, 0))
      return 0;
    if (auto *II = dyn_cast<IntrinsicInst>(V))
      return II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_tid_x ? 1 : 0;
    if (auto *G = dyn_cast<GEPOperator>(V))
      return gep(*G, Depth);
    if (auto *C = dyn_cast<CastInst>(V))
      return C->isIntegerCast() || isa<AddrSpaceCastInst>(C) || isa<BitCastInst>(C)
                 ? of(C->getOperand(0), Depth + 1)
                 : std::nullopt;
    if (auto *O = dyn_cast<Operator>(V); O && O->getOpcode() == Instruction::AddrSpaceCast)
      return of(O->getOperand(0), Depth + 1);
    if (auto *B = dyn_cast<BinaryOperator>(V))
      return binary(*B, Depth);
    if (auto *S = dyn_cast<SelectInst>(V))
      return same({S->getTrueValue(), S->getFalseValue()}, Depth);
    if (auto *P = dyn_cast<PHINode>(V)) {
      if (!InProgress.insert(P).second)
        return Loop;
      std::vector<const Value *> In(P->incoming_values().begin(), P->incoming_values().end());
      std::optional<int64_t> R = same(In, Depth);
      InProgress.erase(P);
      return R;
    }
    return std::nullopt;
  }

private:
  // A phi met again inside itself: no constraint on the others.
  static constexpr int64_t Loop = INT64_MIN;

  std::optional<int64_t> same(const std::vector<const Value *> &Values, unsigned Depth) {
    std::optional<int64_t> R = Loop;
    for (const Value *V : Values) {
      std::optional<int64_t> S = of(V, Depth + 1);
      if (!S)
        return std::nullopt;
      if (*S == Loop)
        continue;
      if (*R != Loop && *R != *S)
        return std::nullopt;
      R = S;
    }
    return *R == Loop ? 0 : R;
  }

  std::optional<int64_t> gep(const GEPOperator &G, unsigned Depth) {
    std::optional<int64_t> Sum = of(G.getPointerOperand(), Depth + 1);
    for (gep_type_iterator T = gep_type_begin(G), E = gep_type_end(G); Sum && T != E; ++T) {
      std::optional<int64_t> S = of(T.getOperand(), Depth + 1);
      if (!S || (*S && T.getStructTypeOrNull()))
        return std::nullopt;
      if (*S)
        *Sum += *S * int64_t(T.getSequentialElementStride(DL));
    }
    return Sum;
  }

  std::optional<int64_t> binary(const BinaryOperator &B, unsigned Depth) {
    std::optional<int64_t> L = of(B.getOperand(0), Depth + 1), R = of(B.getOperand(1), Depth + 1);
    if (!L || !R)
      return std::nullopt;
    auto *C0 = dyn_cast<ConstantInt>(B.getOperand(0)), *C1 = dyn_cast<ConstantInt>(B.getOperand(1));
    switch (B.getOpcode()) {
    case Instruction::Add:
      return *L + *R;
    case Instruction::Sub:
      return *L - *R;
    case Instruction::Or:
      if (cast<PossiblyDisjointInst>(B).isDisjoint())
        return *L + *R;
      break;
    case Instruction::Mul:
      if (C1)
        return *L * C1->getSExtValue();
      if (C0)
        return *R * C0->getSExtValue();
      break;
    case Instruction::Shl:
      if (C1 && C1->getZExtValue() < 32)
        return *L * (int64_t(1) << C1->getZExtValue());
      break;
    default:
      break;
    }
    return std::nullopt;
  }

  const DataLayout &DL;
  SmallPtrSet<const PHINode *, 8> InProgress;
};

// The constant bytes V adds to a pointer (or index) beside what varies from
// thread to thread: each index's constant addends times its stride, struct
// fields at their offsets. A phi or select whose inputs disagree adds 0, as
// does anything not arithmetic (a loaded index, a parameter, %tid itself).
class ConstantPart {
public:
  explicit ConstantPart(const DataLayout &DL) : DL(DL) {}

  int64_t of(const Value *V, unsigned Depth = 0) {
    if (Depth > 24)
      return 0;
    if (auto *C = dyn_cast<ConstantInt>(V))
      return C->getBitWidth() <= 64 ? C->getSExtValue() : 0;
    if (auto *G = dyn_cast<GEPOperator>(V))
      return gep(*G, Depth);
    if (auto *C = dyn_cast<CastInst>(V))
      return C->isIntegerCast() || isa<AddrSpaceCastInst>(C) || isa<BitCastInst>(C)
                 ? of(C->getOperand(0), Depth + 1)
                 : 0;
    if (auto *O = dyn_cast<Operator>(V); O && O->getOpcode() == Instruction::AddrSpaceCast)
      return of(O->getOperand(0), Depth + 1);
    if (auto *B = dyn_cast<BinaryOperator>(V))
      return binary(*B, Depth);
    if (auto *S = dyn_cast<SelectInst>(V))
      return agreed({S->getTrueValue(), S->getFalseValue()}, Depth);
    if (auto *P = dyn_cast<PHINode>(V)) {
      if (!InProgress.insert(P).second)
        return 0;
      std::vector<const Value *> In(P->incoming_values().begin(), P->incoming_values().end());
      int64_t R = agreed(In, Depth);
      InProgress.erase(P);
      return R;
    }
    return 0;
  }

private:
  int64_t agreed(const std::vector<const Value *> &Values, unsigned Depth) {
    std::optional<int64_t> R;
    for (const Value *V : Values) {
      int64_t C = of(V, Depth + 1);
      if (R && *R != C)
        return 0;
      R = C;
    }
    return R.value_or(0);
  }

  int64_t gep(const GEPOperator &G, unsigned Depth) {
    int64_t Sum = of(G.getPointerOperand(), Depth + 1);
    for (gep_type_iterator T = gep_type_begin(G), E = gep_type_end(G); T != E; ++T) {
      if (StructType *S = T.getStructTypeOrNull()) {
        if (auto *Field = dyn_cast<ConstantInt>(T.getOperand()))
          Sum += int64_t(DL.getStructLayout(S)->getElementOffset(Field->getZExtValue()));
        continue;
      }
      Sum += of(T.getOperand(), Depth + 1) * int64_t(T.getSequentialElementStride(DL));
    }
    return Sum;
  }

  int64_t binary(const BinaryOperator &B, unsigned Depth) {
    auto *C0 = dyn_cast<ConstantInt>(B.getOperand(0)), *C1 = dyn_cast<ConstantInt>(B.getOperand(1));
    switch (B.getOpcode()) {
    case Instruction::Add:
      return of(B.getOperand(0), Depth + 1) + of(B.getOperand(1), Depth + 1);
    case Instruction::Sub:
      return of(B.getOperand(0), Depth + 1) - of(B.getOperand(1), Depth + 1);
    case Instruction::Or:
      if (cast<PossiblyDisjointInst>(B).isDisjoint())
        return of(B.getOperand(0), Depth + 1) + of(B.getOperand(1), Depth + 1);
      return 0;
    case Instruction::Mul:
      if (C1 && C1->getBitWidth() <= 64)
        return of(B.getOperand(0), Depth + 1) * C1->getSExtValue();
      if (C0 && C0->getBitWidth() <= 64)
        return of(B.getOperand(1), Depth + 1) * C0->getSExtValue();
      return 0;
    case Instruction::Shl:
      if (C1 && C1->getZExtValue() < 32)
        return of(B.getOperand(0), Depth + 1) * (int64_t(1) << C1->getZExtValue());
      return 0;
    default:
      return 0;
    }
  }

  const DataLayout &DL;
  SmallPtrSet<const PHINode *, 8> InProgress;
};

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

std::vector<unsigned> threadIndexedAccessSteps(const BasicBlock &BB) {
  std::vector<unsigned> Out;
  LaneStep Step(BB.getDataLayout());
  for (const Instruction &I : BB)
    if (const Value *Ptr = accessedPointer(I); Ptr && followsWithLoads(Ptr, 0)) {
      std::optional<int64_t> S = Step.of(Ptr);
      Out.push_back(S && *S != 0 && std::abs(*S) <= UINT32_MAX ? unsigned(std::abs(*S)) : 0);
    }
  return Out;
}

std::vector<AccessPlace> threadIndexedAccessPlaces(const BasicBlock &BB) {
  std::vector<AccessPlace> Out;
  ConstantPart Offset(BB.getDataLayout());
  for (const Instruction &I : BB)
    if (const Value *Ptr = accessedPointer(I); Ptr && followsWithLoads(Ptr, 0))
      Out.push_back({getUnderlyingObject(Ptr, 0), Offset.of(Ptr), accessBytes(I)});
  return Out;
}

std::vector<unsigned> threadIndexedIndirectBytes(const BasicBlock &BB) {
  std::vector<unsigned> Out;
  for (const Instruction &I : BB)
    if (const Value *Ptr = accessedPointer(I);
        Ptr && !followsWithLoads(Ptr, 0) && followsWithLoads(Ptr, 1))
      Out.push_back(accessBytes(I));
  return Out;
}

} // namespace divopt
