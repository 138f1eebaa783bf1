#include "RedirectedCallees.h"
#include "HiddenParamClone.h"
#include "ReachableFunctions.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace divopt {
namespace {

constexpr const char *IdsCloneSuffix = "__divopt_ids";
constexpr unsigned NumIds = 6;

bool readsIds(const Instruction &I) {
  std::optional<ThreadRegister> R = threadRegisterRead(&I);
  return R && (*R == ThreadRegister::Tid || *R == ThreadRegister::Ctaid);
}

// The reachable functions other than the root that read the ids, themselves
// or through a call: a fixpoint over the call graph, recursion included.
SetVector<const Function *> idReaders(const ReachableFunctions &Reach) {
  ArrayRef<const Function *> Callees = Reach.functions().drop_front();
  SetVector<const Function *> Readers;
  for (const Function *F : Callees)
    if (any_of(instructions(*F), readsIds))
      Readers.insert(F);
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const Function *F : Callees)
      if (!Readers.contains(F) && any_of(instructions(*F), [&](const Instruction &I) {
            auto *Call = dyn_cast<CallBase>(&I);
            return Call && Readers.contains(ReachableFunctions::followedCallee(*Call));
          }))
        Grew = Readers.insert(F);
  }
  return Readers;
}

// Call, made to call Target (the ids copy of its callee) with Ids appended.
void callWithIds(CallInst &Call, Function &Target, ArrayRef<Value *> Ids) {
  SmallVector<Value *, 16> Args(Call.args());
  Args.append(Ids.begin(), Ids.end());
  SmallVector<OperandBundleDef, 1> Bundles;
  Call.getOperandBundlesAsDefs(Bundles);
  CallInst *New = CallInst::Create(Target.getFunctionType(), &Target, Args, Bundles, "",
                                   Call.getIterator());
  New->takeName(&Call);
  New->setCallingConv(Call.getCallingConv());
  New->setAttributes(Call.getAttributes());
  New->setTailCallKind(Call.getTailCallKind());
  New->copyMetadata(Call);
  Call.replaceAllUsesWith(New);
  Call.eraseFromParent();
}

// In F (a redirected clone or an ids copy): every call of a reader calls its
// copy, passing Ids on.
void passIds(Function &F, const DenseMap<const Function *, Function *> &Copies,
             ArrayRef<Value *> Ids) {
  SmallVector<CallInst *, 8> Calls;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I); Call && Copies.count(Call->getCalledFunction()))
      Calls.push_back(Call);
  for (CallInst *Call : Calls)
    callWithIds(*Call, *Copies.lookup(Call->getCalledFunction()), Ids);
}

// F__divopt_ids: F with its reads of %tid and %ctaid replaced by the appended
// parameters. Its calls are redirected once every copy exists.
Function *createIdsCopy(Function &F) {
  Type *I32 = Type::getInt32Ty(F.getContext());
  Function *Copy = cloneWithAppendedParams(F, IdsCloneSuffix,
                                           {{I32, "divopt.tid.x"}, {I32, "divopt.tid.y"},
                                            {I32, "divopt.tid.z"}, {I32, "divopt.ctaid.x"},
                                            {I32, "divopt.ctaid.y"}, {I32, "divopt.ctaid.z"}});
  Copy->setLinkage(GlobalValue::InternalLinkage);
  Copy->setComdat(nullptr);
  using namespace Intrinsic;
  const Intrinsic::ID Order[NumIds] = {nvvm_read_ptx_sreg_tid_x,   nvvm_read_ptx_sreg_tid_y,
                                       nvvm_read_ptx_sreg_tid_z,   nvvm_read_ptx_sreg_ctaid_x,
                                       nvvm_read_ptx_sreg_ctaid_y, nvvm_read_ptx_sreg_ctaid_z};
  SmallVector<IntrinsicInst *, 8> Reads;
  for (Instruction &I : instructions(*Copy))
    if (readsIds(I))
      Reads.push_back(cast<IntrinsicInst>(&I));
  for (IntrinsicInst *Read : Reads) {
    unsigned Which = find(Order, Read->getIntrinsicID()) - std::begin(Order);
    Read->replaceAllUsesWith(Copy->getArg(F.arg_size() + Which));
    Read->eraseFromParent();
  }
  return Copy;
}

} // namespace

void redirectCallees(Function &RedirectClone, Dim3Values Tid, Dim3Values Cta) {
  ReachableFunctions Reach(RedirectClone);
  SetVector<const Function *> Readers = idReaders(Reach);
  if (Readers.empty())
    return;
  Module &M = *RedirectClone.getParent();
  DenseMap<const Function *, Function *> Copies;
  SmallVector<Function *, 8> Created;
  // Another redirected kernel of the module may have made a copy already:
  // whether a function reads the ids does not depend on who calls it.
  for (const Function *F : Readers) {
    Function *&Copy = Copies[F];
    Copy = M.getFunction((F->getName() + IdsCloneSuffix).str());
    if (!Copy)
      Created.push_back(Copy = createIdsCopy(const_cast<Function &>(*F)));
  }
  for (Function *Copy : Created) {
    SmallVector<Value *, NumIds> Params;
    for (unsigned I = Copy->arg_size() - NumIds; I < Copy->arg_size(); ++I)
      Params.push_back(Copy->getArg(I));
    passIds(*Copy, Copies, Params);
  }
  passIds(RedirectClone, Copies, {Tid.X, Tid.Y, Tid.Z, Cta.X, Cta.Y, Cta.Z});
}

} // namespace divopt
