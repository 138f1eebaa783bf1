#include "RegroupSafety.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace divopt {
namespace {

constexpr unsigned SharedAddrSpace = 3;

RegroupVerdict refuse(std::string Reason, const Instruction &I) {
  return {false, std::move(Reason), &I};
}

// A pointer into shared memory: in the shared space, or a generic pointer
// derived from a __shared__ variable (through casts and offsets).
bool isSharedPointer(const Value *V) {
  auto InShared = [](const Value *P) {
    auto *T = dyn_cast<PointerType>(P->getType());
    return T && T->getAddressSpace() == SharedAddrSpace;
  };
  return V->getType()->isPointerTy() && (InShared(V) || InShared(getUnderlyingObject(V)));
}

// Intrinsics whose meaning depends on which threads share a warp or block.
std::optional<std::string> groupDependentIntrinsic(StringRef Name) {
  Name.consume_front("llvm.nvvm.");
  static const std::pair<const char *, const char *> Families[] = {
      {"barrier", "a block-wide barrier (__syncthreads or a named barrier)"},
      {"bar.", "a block-wide barrier (__syncthreads or a named barrier)"},
      {"shfl", "a warp shuffle (__shfl_*)"},
      {"vote", "a warp vote (__ballot_sync, __any_sync, __all_sync)"},
      {"match", "a warp match (__match_*_sync)"},
      {"activemask", "__activemask"},
      {"redux", "a warp reduction (__reduce_*_sync)"},
      {"fence.proxy", "a memory proxy fence"},
      {"cp.async", "an asynchronous copy to shared memory"},
      {"mbarrier", "an mbarrier"},
      {"cluster", "thread-block-cluster state"},
      {"read.ptx.sreg.laneid", "%laneid"},
      {"read.ptx.sreg.warpid", "%warpid"},
      {"read.ptx.sreg.nwarpid", "%nwarpid"},
      {"read.ptx.sreg.smid", "%smid"},
      {"read.ptx.sreg.nsmid", "%nsmid"},
      {"read.ptx.sreg.lanemask", "a %lanemask register"},
      {"read.ptx.sreg.gridid", "%gridid"},
  };
  for (auto &[Prefix, What] : Families)
    if (Name.starts_with(Prefix))
      return std::string(What);
  return std::nullopt;
}

// Inline PTX that only computes (libdevice's sinf carries a mad.lo.cc
// pair) is as safe as the arithmetic around it. Anything naming a special
// register (%laneid, %tid: written with a '%') or a warp- or block-level
// instruction is not.
std::optional<std::string> groupDependentAsm(const InlineAsm &Asm) {
  StringRef Text = Asm.getAsmString();
  if (Text.contains('%'))
    return std::string("inline assembly that reads a special register");
  static const char *const GroupLevel[] = {"bar.", "barrier", "shfl", "vote", "match",
                                           "activemask", "redux", "shared", "elect",
                                           "cluster", "cp.async", "griddepcontrol"};
  for (const char *Word : GroupLevel)
    if (Text.contains(Word))
      return "inline assembly with " + std::string(Word);
  return std::nullopt;
}

RegroupVerdict checkCall(const CallBase &Call) {
  if (auto *Asm = dyn_cast<InlineAsm>(Call.getCalledOperand())) {
    if (auto What = groupDependentAsm(*Asm))
      return refuse("it uses " + *What + ", which depends on how threads are grouped", Call);
    return {};
  }
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return refuse("it makes an indirect call, which divopt cannot see into", Call);
  StringRef Name = Callee->getName();
  if (Callee->isIntrinsic()) {
    if (auto What = groupDependentIntrinsic(Name))
      return refuse("it uses " + *What + ", which depends on how threads are grouped", Call);
    return {};
  }
  // Libdevice math is pure per-thread arithmetic.
  if (Name.starts_with("__nv_"))
    return {};
  if (Name.starts_with("cudaLaunchDevice") || Name.starts_with("cudaGetParameterBuffer"))
    return refuse("it launches kernels from the device (dynamic parallelism)", Call);
  return refuse("it calls " + Name.str() + ", which divopt cannot see into", Call);
}

// Atomics whose outcome depends on the order threads arrive in: a used old
// value (slot allocation, compaction) or rounding in floating-point adds.
RegroupVerdict checkAtomic(const Instruction &I) {
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    if (RMW->isFloatingPointOperation())
      return refuse("its floating-point atomics round differently in another thread order", I);
    if (!RMW->use_empty())
      return refuse("it uses the value an atomic returns, which depends on thread order", I);
  }
  if (isa<AtomicCmpXchgInst>(I))
    return refuse("it uses compare-and-swap, whose outcome depends on thread order", I);
  return {};
}

} // namespace

RegroupVerdict regroupSafety(const Function &Kernel) {
  for (const BasicBlock &BB : Kernel)
    for (const Instruction &I : BB) {
      if (auto *Call = dyn_cast<CallBase>(&I)) {
        if (RegroupVerdict V = checkCall(*Call); !V.Safe)
          return V;
        continue;
      }
      if (RegroupVerdict V = checkAtomic(I); !V.Safe)
        return V;
      bool Shared = isSharedPointer(&I);
      for (const Value *Op : I.operands())
        Shared |= isSharedPointer(Op);
      if (Shared)
        return refuse("it uses shared memory, which threads of one block share", I);
    }
  return {};
}

} // namespace divopt
