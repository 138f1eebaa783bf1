#include "ProfileInstrumentation.h"
#include "HiddenParamClone.h"
#include "ThreadIndex.h"
#include "divopt/Abi.h"

#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace divopt {
namespace {

// Per-thread counters as allocas, promoted to registers once all the code
// that uses them is in place.
struct Counters {
  SmallVector<AllocaInst *, 16> Blocks;   // per basic block, i32
  SmallVector<AllocaInst *, 8> BranchExec; // per conditional branch, i64
  SmallVector<AllocaInst *, 8> BranchDiv;
};

void increment(IRBuilder<> &B, AllocaInst *Counter, Value *By) {
  B.CreateStore(B.CreateAdd(B.CreateLoad(Counter->getAllocatedType(), Counter), By), Counter);
}

// Warp-level branch counting, as the NVIDIA profiler counts divergent
// branches: the lowest active lane counts one execution per warp, and one
// divergence when the active lanes disagree on the condition.
void countBranch(BranchInst *Br, AllocaInst *Exec, AllocaInst *Div) {
  IRBuilder<> B(Br);
  Value *Active = B.CreateIntrinsic(Intrinsic::nvvm_activemask, {});
  Value *Taken = B.CreateIntrinsic(Intrinsic::nvvm_vote_ballot_sync, {}, {Active, Br->getCondition()});
  Value *Lane = B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {});
  Value *Leader = B.CreateICmpEQ(
      B.CreateIntrinsic(Intrinsic::cttz, {B.getInt32Ty()}, {Active, B.getTrue()}), Lane);
  Value *Split = B.CreateAnd(B.CreateICmpNE(Taken, B.getInt32(0)), B.CreateICmpNE(Taken, Active));
  increment(B, Exec, B.CreateZExt(Leader, B.getInt64Ty()));
  increment(B, Div, B.CreateZExt(B.CreateAnd(Leader, Split), B.getInt64Ty()));
}

// At a return: each thread stores its block counts to its own slots (plain
// stores, coalesced across the warp) and adds its nonzero branch counts to
// its warp's bucket (gtid / 32). Buckets keep the atomics uncontended: one
// shared set of counters made every leader lane in the grid queue on the
// same few addresses (10x kernel time on an H100); the runtime sums them.
void flushAt(ReturnInst *Ret, const Counters &C, ThreadGeometry G, Argument *Counts,
             Argument *Branches) {
  IRBuilder<> B(Ret);
  const uint64_t NumBranches = C.BranchExec.size();
  Value *Bucket = B.CreateLShr(G.Gtid, 5, "divopt.bucket");
  for (unsigned Bb = 0; Bb < C.Blocks.size(); ++Bb) {
    Value *Slot = B.CreateAdd(B.CreateMul(B.getInt64(Bb), G.Threads), G.Gtid);
    Value *Ptr = B.CreateInBoundsGEP(B.getInt32Ty(), Counts, Slot);
    B.CreateStore(B.CreateLoad(B.getInt32Ty(), C.Blocks[Bb]), Ptr);
  }
  for (unsigned K = 0; K < C.BranchExec.size(); ++K) {
    for (unsigned Which = 0; Which < 2; ++Which) {
      AllocaInst *Counter = Which == 0 ? C.BranchExec[K] : C.BranchDiv[K];
      IRBuilder<> At(Ret);
      Value *N = At.CreateLoad(At.getInt64Ty(), Counter);
      Instruction *Then = SplitBlockAndInsertIfThen(At.CreateICmpNE(N, At.getInt64(0)), Ret, false);
      IRBuilder<> T(Then);
      Value *Slot = T.CreateAdd(T.CreateMul(Bucket, T.getInt64(2 * NumBranches)),
                                T.getInt64(2 * K + Which));
      Value *Ptr = T.CreateInBoundsGEP(T.getInt64Ty(), Branches, Slot);
      T.CreateAtomicRMW(AtomicRMWInst::Add, Ptr, N, MaybeAlign(8), AtomicOrdering::Monotonic);
    }
  }
}

} // namespace

Function *createProfileClone(Function &Kernel, const BlockNumbering &Numbering) {
  PointerType *GlobalPtr = PointerType::get(Kernel.getContext(), /*AddressSpace=*/1);
  ValueToValueMapTy VMap;
  Function *Clone = cloneWithHiddenParams(
      Kernel, abi::ProfileCloneSuffix,
      {{GlobalPtr, "divopt.counts"}, {GlobalPtr, "divopt.branches"}}, &VMap);
  auto [Blocks, Returns] = clonedBlocks(Numbering, VMap);
  Argument *Counts = Clone->getArg(Kernel.arg_size());
  Argument *Branches = Clone->getArg(Kernel.arg_size() + 1);

  BasicBlock &Entry = Clone->getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  Counters C;
  auto NewCounter = [&](Type *T, uint64_t Initial, const Twine &Name) {
    AllocaInst *A = B.CreateAlloca(T, nullptr, Name);
    B.CreateStore(ConstantInt::get(T, Initial), A);
    return A;
  };
  // The entry block runs exactly once per thread: its counter starts at 1.
  for (unsigned Bb = 0; Bb < Blocks.size(); ++Bb)
    C.Blocks.push_back(NewCounter(B.getInt32Ty(), Bb == 0, "divopt.bb" + Twine(Bb)));
  for (unsigned K = 0; K < Numbering.BranchBlocks.size(); ++K) {
    C.BranchExec.push_back(NewCounter(B.getInt64Ty(), 0, "divopt.br" + Twine(K) + ".exec"));
    C.BranchDiv.push_back(NewCounter(B.getInt64Ty(), 0, "divopt.br" + Twine(K) + ".div"));
  }
  ThreadGeometry G = emitThreadGeometry(B);

  for (unsigned Bb = 1; Bb < Blocks.size(); ++Bb) {
    IRBuilder<> At(Blocks[Bb], Blocks[Bb]->getFirstInsertionPt());
    increment(At, C.Blocks[Bb], At.getInt32(1));
  }
  for (unsigned K = 0; K < Numbering.BranchBlocks.size(); ++K)
    countBranch(cast<BranchInst>(Blocks[Numbering.BranchBlocks[K]]->getTerminator()),
                C.BranchExec[K], C.BranchDiv[K]);
  for (ReturnInst *Ret : Returns)
    flushAt(Ret, C, G, Counts, Branches);

  SmallVector<AllocaInst *, 32> All(C.Blocks.begin(), C.Blocks.end());
  All.append(C.BranchExec.begin(), C.BranchExec.end());
  All.append(C.BranchDiv.begin(), C.BranchDiv.end());
  DominatorTree DT(*Clone);
  PromoteMemToReg(All, DT);
  return Clone;
}

} // namespace divopt
