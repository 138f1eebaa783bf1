#include "RegroupSafety.h"
#include "KernelNotes.h"
#include "Kernels.h"
#include "ReachableFunctions.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace divopt {
namespace {

constexpr unsigned SharedAddrSpace = 3;

// What one instruction does that regrouping would change, as a predicate
// of the function it is in ("uses a warp shuffle ..."), and the instruction.
struct Finding {
  std::string What;
  const Instruction *At;
};
using MaybeFinding = std::optional<Finding>;

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

MaybeFinding checkCall(const CallBase &Call) {
  auto Found = [&](std::string What) { return Finding{std::move(What), &Call}; };
  if (auto *Asm = dyn_cast<InlineAsm>(Call.getCalledOperand())) {
    if (auto What = groupDependentAsm(*Asm))
      return Found("uses " + *What + ", which depends on how threads are grouped");
    return std::nullopt;
  }
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return Found("makes an indirect call, which divopt cannot see into");
  StringRef Name = Callee->getName();
  if (Callee->isIntrinsic()) {
    if (auto What = groupDependentIntrinsic(Name))
      return Found("uses " + *What + ", which depends on how threads are grouped");
    return std::nullopt;
  }
  if (!Callee->isDeclaration()) {
    // The walk checks the callee's body; the redirected clone passes the
    // thread's ids into it by appending parameters, which a variadic
    // function or a call that is not a plain call would not take.
    if (Callee->isVarArg())
      return Found("calls " + demangledName(Name) +
                   ", which is variadic: divopt cannot pass it the regrouped thread ids");
    if (!isa<CallInst>(Call))
      return Found("calls " + demangledName(Name) + " through " + Call.getOpcodeName() +
                   ", which divopt does not redirect");
    // A weak definition may not be the one that runs: the linker can pick
    // another unit's, which divopt has not seen.
    if (Callee->isInterposable())
      return Found("calls " + demangledName(Name) +
                   ", whose definition another translation unit may replace at link time");
    return std::nullopt;
  }
  // Libdevice math is pure per-thread arithmetic, linked or not.
  if (Name.starts_with("__nv_"))
    return std::nullopt;
  if (Name.starts_with("cudaLaunchDevice") || Name.starts_with("cudaGetParameterBuffer"))
    return Found("launches kernels from the device (dynamic parallelism)");
  return Found("calls " + demangledName(Name) +
               ", which has no body in this module for divopt to see into");
}

// Atomics whose outcome depends on the order threads arrive in: a used old
// value (slot allocation, compaction) or rounding in floating-point adds.
MaybeFinding checkAtomic(const Instruction &I) {
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    if (RMW->isFloatingPointOperation())
      return Finding{"uses floating-point atomics, which round differently in another thread "
                     "order",
                     &I};
    if (!RMW->use_empty())
      return Finding{"uses the value an atomic returns, which depends on thread order", &I};
  }
  if (isa<AtomicCmpXchgInst>(I))
    return Finding{"uses compare-and-swap, whose outcome depends on thread order", &I};
  return std::nullopt;
}

MaybeFinding check(const Instruction &I) {
  if (auto *Call = dyn_cast<CallBase>(&I))
    if (MaybeFinding F = checkCall(*Call))
      return F;
  if (MaybeFinding F = checkAtomic(I))
    return F;
  // Calls too: a __shared__ buffer passed to a helper is shared memory.
  bool Shared = isSharedPointer(&I);
  for (const Value *Op : I.operands())
    Shared |= isSharedPointer(Op);
  if (Shared)
    return Finding{"uses shared memory, which threads of one block share", &I};
  return std::nullopt;
}

// " at file.cu:12" where I has a line, for naming places outside the kernel.
std::string at(const Instruction &I) {
  const DILocation *L = userLocation(I);
  if (!L)
    return "";
  return (" at " + sys::path::filename(L->getFilename()) + ":" + Twine(L->getLine())).str();
}

// The kernel's own finding is blamed where it is; one in a callee at the
// kernel's call that leads to it, naming each call on the way and where in
// the last callee the finding is.
RegroupVerdict refusal(const Finding &Found, ArrayRef<const CallBase *> Chain) {
  if (Chain.empty())
    return {false, "it " + Found.What, Found.At};
  std::string Reason = "it";
  for (const CallBase *Call : Chain)
    Reason += (Call == Chain.front() ? " calls " : ", which calls ") +
              demangledName(Call->getCalledFunction()->getName()) + at(*Call);
  Reason += ", which" + at(*Found.At) + " " + Found.What;
  return {false, std::move(Reason), Chain.front()};
}

} // namespace

RegroupVerdict regroupSafety(const Function &Kernel) {
  ReachableFunctions Reach(Kernel);
  for (const Function *F : Reach.functions())
    for (const Instruction &I : instructions(*F))
      if (MaybeFinding Found = check(I))
        return refusal(*Found, Reach.chainTo(*F));
  return {};
}

} // namespace divopt
