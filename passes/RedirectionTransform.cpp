#include "RedirectionTransform.h"
#include "HiddenParamClone.h"
#include "RedirectedCallees.h"
#include "ThreadIndex.h"
#include "divopt/Abi.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace divopt {

Function *createRedirectClone(Function &Kernel) {
  LLVMContext &Ctx = Kernel.getContext();
  Function *Clone = cloneWithHiddenParams(Kernel, abi::RedirectCloneSuffix,
                                          {{PointerType::get(Ctx, 1), "divopt.redirect"}});
  Argument *Redirect = Clone->getArg(Kernel.arg_size());

  BasicBlock &Entry = Clone->getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  using namespace Intrinsic;
  Dim3Values Tid = readTid(B), Ntid = readNtid(B), Cta = readCtaid(B), Ncta = readNctaid(B);
  Value *PerBlock = volume(B, Ntid);
  Value *Physical =
      B.CreateAdd(B.CreateMul(linearize(B, Cta, Ncta), PerBlock), linearize(B, Tid, Ntid),
                  "divopt.physical");
  Value *Slot = B.CreateInBoundsGEP(B.getInt32Ty(), Redirect, B.CreateZExt(Physical, B.getInt64Ty()));
  Value *Logical = B.CreateLoad(B.getInt32Ty(), Slot, "divopt.logical");
  Dim3Values NewTid = delinearize(B, B.CreateURem(Logical, PerBlock), Ntid, "divopt.tid");
  Dim3Values NewCta = delinearize(B, B.CreateUDiv(Logical, PerBlock), Ncta, "divopt.ctaid");
  Instruction *PrologueEnd = cast<Instruction>(NewCta.Z);

  // Every other read of the thread's identity now reads the logical one.
  const std::pair<Intrinsic::ID, Value *> Replacements[] = {
      {nvvm_read_ptx_sreg_tid_x, NewTid.X},   {nvvm_read_ptx_sreg_tid_y, NewTid.Y},
      {nvvm_read_ptx_sreg_tid_z, NewTid.Z},   {nvvm_read_ptx_sreg_ctaid_x, NewCta.X},
      {nvvm_read_ptx_sreg_ctaid_y, NewCta.Y}, {nvvm_read_ptx_sreg_ctaid_z, NewCta.Z}};
  SmallVector<IntrinsicInst *, 16> Reads;
  bool InPrologue = true;
  for (BasicBlock &BB : *Clone)
    for (Instruction &I : BB) {
      if (InPrologue) {
        InPrologue = &I != PrologueEnd;
        continue;
      }
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        Reads.push_back(II);
    }
  for (IntrinsicInst *II : Reads)
    for (auto &[Id, Value] : Replacements)
      if (II->getIntrinsicID() == Id) {
        II->replaceAllUsesWith(Value);
        II->eraseFromParent();
        break;
      }
  // And so does every read in the functions it calls.
  redirectCallees(*Clone, NewTid, NewCta);
  return Clone;
}

} // namespace divopt
