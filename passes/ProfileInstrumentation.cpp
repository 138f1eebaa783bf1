#include "ProfileInstrumentation.h"
#include "CountBounds.h"
#include "CounterFinalPoints.h"
#include "HiddenParamClone.h"
#include "ThreadIndex.h"
#include "divopt/Abi.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace divopt {
namespace {

// Per-thread counters as allocas, promoted to registers once all the code
// that uses them is in place.
struct Counters {
  SmallVector<AllocaInst *, 16> Edges;    // per counted edge (notes "counters"), i32
  SmallVector<AllocaInst *, 8> BranchExec; // per conditional branch, i32
  SmallVector<AllocaInst *, 8> BranchDiv;
};

void increment(IRBuilder<> &B, AllocaInst *Counter, Value *By) {
  B.CreateStore(B.CreateAdd(B.CreateLoad(Counter->getAllocatedType(), Counter), By), Counter);
}

Value *ballot(IRBuilder<> &B, Value *Active, Value *Pred) {
  return B.CreateIntrinsic(Intrinsic::nvvm_vote_ballot_sync, {}, {Active, Pred});
}

// Whether the warp's active lanes disagree on where Term sends them. A
// `br`: some but not all take the true edge. A switch: each thread's
// successor as a small number (the successors numbered in order of first
// appearance); the lanes disagree when they disagree on some bit of it, a
// ballot per bit (a few: switches have few distinct successors).
Value *lanesDisagree(IRBuilder<> &B, Instruction *Term, Value *Active) {
  auto Split = [&](Value *Pred) {
    Value *Votes = ballot(B, Active, Pred);
    return B.CreateAnd(B.CreateICmpNE(Votes, B.getInt32(0)), B.CreateICmpNE(Votes, Active));
  };
  if (auto *Br = dyn_cast<BranchInst>(Term))
    return Split(Br->getCondition());
  auto *Sw = cast<SwitchInst>(Term);
  SmallVector<BasicBlock *, 8> Targets;
  auto Number = [&](BasicBlock *Target) {
    unsigned N = find(Targets, Target) - Targets.begin();
    if (N == Targets.size())
      Targets.push_back(Target);
    return B.getInt32(N);
  };
  Value *Index = Number(Sw->getDefaultDest());
  for (auto &Case : Sw->cases())
    Index = B.CreateSelect(B.CreateICmpEQ(Sw->getCondition(), Case.getCaseValue()),
                           Number(Case.getCaseSuccessor()), Index);
  Value *Any = B.getFalse();
  for (unsigned Bit = 0; (1u << Bit) < Targets.size(); ++Bit)
    Any = B.CreateOr(Any, Split(B.CreateTrunc(Bit ? B.CreateLShr(Index, Bit) : Index,
                                              B.getInt1Ty())));
  return Any;
}

// Warp-level branch counting, as the NVIDIA profiler counts divergent
// branches: the lowest active lane counts one execution per warp, and one
// divergence when the active lanes disagree on where to go. This runs at
// every execution of every branch, in the kernel's hottest loops, so it is
// kept short: the lowest active lane is the one with no active lane below it
// (%lanemask_lt is a per-thread constant, hoisted out of loops), and the
// counters are 32-bit registers (a 64-bit add is two instructions), widened
// when they are added to the 64-bit buckets at exit. A thread's count of one
// branch wraps at 2^32 executions, as its edge counters do.
void countBranch(Instruction *Term, AllocaInst *Exec, AllocaInst *Div) {
  IRBuilder<> B(Term);
  Value *Active = B.CreateIntrinsic(Intrinsic::nvvm_activemask, {});
  Value *Disagree = lanesDisagree(B, Term, Active);
  Value *Below = B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_lanemask_lt, {});
  Value *Leader = B.CreateICmpEQ(B.CreateAnd(Active, Below), B.getInt32(0));
  increment(B, Exec, B.CreateZExt(Leader, B.getInt32Ty()));
  increment(B, Div, B.CreateZExt(B.CreateAnd(Leader, Disagree), B.getInt32Ty()));
}

static_assert((abi::BranchBucketThreads & (abi::BranchBucketThreads - 1)) == 0,
              "a branch bucket is a power of two threads");
static_assert((abi::BranchSamplePeriod & (abi::BranchSamplePeriod - 1)) == 0,
              "branch sampling takes every 2^k-th thread block");

// A u16 slot holding NarrowMarker means "this count is escaped": in the
// overflow list (narrow mode) or in the u32 array after the slots (wide).
constexpr uint32_t NarrowMarker = 0xFFFF;

// What every store of a thread's counters needs. Counter c of thread g is
// element ((g / 32) * C + c) * 32 + g % 32 of counts (Abi.h): a warp's 32
// counts of one counter lie together, so one store of the warp writes 64 (or
// 128) consecutive bytes, and a thread's slot of counter c is its slot of
// counter 0 plus a constant, c * 32 elements: the store's immediate offset
// from one pointer computed at entry.
struct CounterSink {
  ThreadGeometry G;
  Argument *Counts, *Overflow;
  unsigned NumCounters; // C
  Value *Base16;        // &((uint16_t *)counts)[slot of counter 0]
  Value *BucketShift;   // log2 of a branch bucket's threads (abi::branchBucketThreads)
  AllocaInst *Hash[2] = {nullptr, nullptr}; // Abi.h's hashes: count * multiplier sums, i64
  // The hashes' bit words (Abi.h): counter -> its field, for counters whose
  // count CountBounds bounds below 2^width (1 bit for a count of 0 or 1),
  // and the i32 words the fields are summed into.
  struct Field {
    unsigned Word, Shift;
  };
  DenseMap<unsigned, Field> FieldOf;
  SmallVector<AllocaInst *, 4> BitWords;
  // Blocks that run only for a count at or over the marker: moved
  // after the body once it is complete, out of the way of the instruction
  // fetch of the hot path (the 20M-thread kernel's clone stalled on fetch
  // for 43% of its samples with them in line).
  SetVector<BasicBlock *> Cold;
};

// The hashes' steps are PTX mads that LLVM cannot see into: as plain adds,
// reassociation summed each store point's terms apart and the hashes only at
// the return, 80 partial sums live at once in a kernel of 40 stages (116
// registers). X * Y + Z, all i32 or all i64.
Value *mad(IRBuilder<> &B, Value *X, Value *Y, Value *Z) {
  Type *T = X->getType();
  bool Wide = T->isIntegerTy(64);
  return B.CreateCall(InlineAsm::get(FunctionType::get(T, {T, T, T}, false),
                                     Wide ? "mad.lo.u64 $0, $1, $2, $3;"
                                          : "mad.lo.u32 $0, $1, $2, $3;",
                                     Wide ? "=l,l,l,l" : "=r,r,r,r", false),
                      {X, Y, Z});
}

// The multipliers of counter c in the two hashes: odd 64-bit constants,
// fixed (splitmix64 of 2c + 1 and 2c + 2) so that a build is reproducible.
// Bit word j's are those of counter C + j, C the kernel's counters.
uint64_t hashMultiplier(unsigned Counter, unsigned Which) {
  uint64_t Z = (uint64_t(2) * Counter + 1 + Which) * 0x9e3779b97f4a7c15ull;
  Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ull;
  Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebull;
  return (Z ^ (Z >> 31)) | 1;
}

// A counter and its value where it is stored, and whether the count can
// reach the marker (CountBounds: not on a cycle, nor in loops whose trip
// counts bound it below).
struct CounterValue {
  unsigned Counter;
  Value *V;
  bool MayOverflow;
};

// Narrow mode's escape for one count that does not fit: append {gtid,
// counter, count} to the overflow list when it has room (Abi.h).
void appendOverflow(IRBuilder<> &B, CounterSink &S, unsigned Counter, Value *V) {
  Value *Index = B.CreateAtomicRMW(AtomicRMWInst::Add, S.Overflow, B.getInt32(1), MaybeAlign(4),
                                   AtomicOrdering::Monotonic);
  Index->setName("divopt.overflow.index");
  Value *Capacity = B.CreateLoad(
      B.getInt32Ty(), B.CreateInBoundsGEP(B.getInt32Ty(), S.Overflow, B.getInt64(1)),
      "divopt.overflow.capacity");
  Instruction *Rest = &*B.GetInsertPoint();
  Instruction *Then = SplitBlockAndInsertIfThen(
      B.CreateICmpULT(Index, Capacity, "divopt.overflow.room"), Rest, false);
  S.Cold.insert(Then->getParent());
  S.Cold.insert(Rest->getParent());
  IRBuilder<> R(Then);
  Value *Base = R.CreateAdd(
      R.getInt64(2),
      R.CreateMul(R.CreateZExt(Index, R.getInt64Ty()), R.getInt64(abi::OverflowRecordWords)),
      "divopt.overflow.base");
  Value *Fields[] = {R.CreateTrunc(S.G.Gtid, R.getInt32Ty()), R.getInt32(Counter), V};
  for (unsigned I = 0; I < 3; ++I)
    R.CreateStore(Fields[I], R.CreateInBoundsGEP(R.getInt32Ty(), S.Overflow,
                                                 I ? R.CreateAdd(Base, R.getInt64(I)) : Base));
}

// A special register read anew where it is used: as an intrinsic, the
// backend reuses the entry's reads, and whatever it computed from them stays
// live through the kernel (five more registers for the launch's threads,
// which only the cold wide escape needs).
Value *readSregAnew(IRBuilder<> &B, const char *Name) {
  auto *Fn = FunctionType::get(B.getInt32Ty(), false);
  return B.CreateZExt(
      B.CreateCall(InlineAsm::get(Fn, (Twine("mov.u32 $0, ") + Name + ";").str(), "=r",
                                  /*hasSideEffects=*/true)),
      B.getInt64Ty());
}

// Where counter Counter of the thread is escaped in wide mode (Abi.h): the
// u32 array that follows the S u16 slots, at the same index, counts + 2 * S
// + 4 * (slot0 + 32 * Counter), S = C * 32 * ceil(nthreads / 32). From
// Base16 (counts + 2 * slot0) as 2 * Base16 - counts, so that nothing but
// Base16 stays live for it.
Value *wideSlot(IRBuilder<> &B, CounterSink &S, unsigned Counter) {
  Value *Threads = B.getInt64(1);
  for (const char *Sreg : {"%ntid.x", "%ntid.y", "%ntid.z", "%nctaid.x", "%nctaid.y",
                           "%nctaid.z"})
    Threads = B.CreateMul(Threads, readSregAnew(B, Sreg));
  Value *Warps = B.CreateLShr(B.CreateAdd(Threads, B.getInt64(31)), 5);
  Value *SlotBytes = B.CreateMul(Warps, B.getInt64(uint64_t(S.NumCounters) * 32 * 2));
  Value *Wide0 = B.CreateSub(B.CreateShl(B.CreatePtrToInt(S.Base16, B.getInt64Ty()), 1),
                             B.CreatePtrToInt(S.Counts, B.getInt64Ty()));
  Value *At = B.CreateAdd(B.CreateAdd(Wide0, SlotBytes), B.getInt64(uint64_t(Counter) * 128));
  return B.CreateIntToPtr(At, S.Counts->getType(), "divopt.wide.slot");
}

// Stores some of a thread's edge counters to their u16 slots of counts
// before Before: plain stores, coalesced across the warp. A count counted on
// a cycle may reach the marker 0xFFFF: when any of the group's does, a
// branch the thread takes alone, to a cold block, stores the marker in its
// slot and the count itself where the launch's mode puts it (Abi.h): the
// overflow list (narrow, overflow not null) or the u32 array after the slots
// (wide). The common case pays the stores, one compare and the branch: a
// warp-wide vote made the branch uniform but cost more than it saved (the
// vote of the active mask, its divergence check), and a width test at every
// store (u16 or u32 slots) cost four predicated instructions even when
// narrow (20M-thread many_blocks, H200).
void storeCounters(Instruction *Before, ArrayRef<CounterValue> Group, CounterSink &S) {
  if (Group.empty())
    return;
  IRBuilder<> B(Before);
  // A zero adds nothing to the hashes (and is all a bypass stores); a small
  // kernel sums none (abi::LargeProfileCounters). A bounded count is added
  // at its field of a bit word (one IMAD), which the returns add to the
  // hashes; any other is multiplied into both (four, and two moves).
  if (S.Hash[0]) {
    SmallVector<const CounterValue *, 16> Summed;
    for (const CounterValue &CV : Group) {
      if (isa<Constant>(CV.V))
        continue;
      auto Field = S.FieldOf.find(CV.Counter);
      if (Field == S.FieldOf.end()) {
        Summed.push_back(&CV);
        continue;
      }
      AllocaInst *Word = S.BitWords[Field->second.Word];
      B.CreateStore(mad(B, CV.V, B.getInt32(1u << Field->second.Shift),
                          B.CreateLoad(B.getInt32Ty(), Word)),
                    Word);
    }
    for (unsigned Which = 0; Which < 2 && !Summed.empty(); ++Which) {
      Value *H = B.CreateLoad(B.getInt64Ty(), S.Hash[Which]);
      for (const CounterValue *CV : Summed)
        H = mad(B, B.CreateZExt(CV->V, B.getInt64Ty()),
                  B.getInt64(hashMultiplier(CV->Counter, Which)), H);
      B.CreateStore(H, S.Hash[Which]);
    }
  }
  auto Slot16 = [&](IRBuilder<> &At, unsigned Counter) {
    return At.CreateConstInBoundsGEP1_64(At.getInt16Ty(), S.Base16, uint64_t(Counter) * 32);
  };
  SmallVector<const CounterValue *, 4> Escapable;
  Value *Max = nullptr;
  for (const CounterValue &CV : Group) {
    B.CreateStore(B.CreateTrunc(CV.V, B.getInt16Ty()), Slot16(B, CV.Counter));
    if (!CV.MayOverflow)
      continue;
    Escapable.push_back(&CV);
    Max = Max ? B.CreateBinaryIntrinsic(Intrinsic::umax, Max, CV.V) : CV.V;
  }
  if (Escapable.empty())
    return;
  MDBuilder Weights(Before->getContext());
  Instruction *Escape = SplitBlockAndInsertIfThen(
      B.CreateICmpUGE(Max, B.getInt32(NarrowMarker), "divopt.over"), Before, false,
      Weights.createUnlikelyBranchWeights());
  Escape->getParent()->setName("divopt.escape");
  S.Cold.insert(Escape->getParent());
  auto *Null = ConstantPointerNull::get(cast<PointerType>(S.Overflow->getType()));
  for (const CounterValue *CV : Escapable) {
    // Of several counts, only those at or past the marker escape.
    Instruction *Count = Escape;
    if (Escapable.size() > 1) {
      IRBuilder<> At(Escape);
      Count = SplitBlockAndInsertIfThen(At.CreateICmpUGE(CV->V, At.getInt32(NarrowMarker)),
                                        Escape, false);
      Count->getParent()->setName("divopt.escape.count");
      S.Cold.insert(Count->getParent());
      S.Cold.insert(Escape->getParent());
    }
    IRBuilder<> C(Count);
    C.CreateStore(C.getInt16(uint16_t(NarrowMarker)), Slot16(C, CV->Counter));
    Instruction *Wide = nullptr, *Narrow = nullptr;
    SplitBlockAndInsertIfThenElse(C.CreateICmpEQ(S.Overflow, Null, "divopt.is.wide"), Count,
                                  &Wide, &Narrow);
    Wide->getParent()->setName("divopt.escape.wide");
    Narrow->getParent()->setName("divopt.escape.list");
    S.Cold.insert(Wide->getParent());
    S.Cold.insert(Narrow->getParent());
    S.Cold.insert(Count->getParent());
    IRBuilder<> W(Wide);
    W.CreateStore(CV->V, wideSlot(W, S, CV->Counter));
    IRBuilder<> N(Narrow);
    appendOverflow(N, S, CV->Counter, CV->V);
  }
}

// Adds a thread's nonzero branch counts to its bucket (gtid /
// abi::BranchBucketThreads) before Before. Buckets keep the atomics
// uncontended: one shared set of counters made every leader lane in the grid
// queue on the same few addresses (10x kernel time on an H100); the runtime
// sums them.
void flushBranches(Instruction *Before, ArrayRef<unsigned> Ks, const Counters &C,
                   const CounterSink &S, Argument *Branches) {
  const uint64_t NumBranches = C.BranchExec.size();
  for (unsigned K : Ks) {
    for (unsigned Which = 0; Which < 2; ++Which) {
      AllocaInst *Counter = Which == 0 ? C.BranchExec[K] : C.BranchDiv[K];
      IRBuilder<> At(Before);
      Value *N = At.CreateLoad(At.getInt32Ty(), Counter);
      Instruction *Then =
          SplitBlockAndInsertIfThen(At.CreateICmpNE(N, At.getInt32(0)), Before, false);
      IRBuilder<> T(Then);
      Value *Bucket = T.CreateLShr(S.G.Gtid, S.BucketShift, "divopt.bucket");
      Value *Slot = T.CreateAdd(T.CreateMul(Bucket, T.getInt64(2 * NumBranches)),
                                T.getInt64(2 * K + Which));
      Value *Ptr = T.CreateInBoundsGEP(T.getInt64Ty(), Branches, Slot);
      T.CreateAtomicRMW(AtomicRMWInst::Add, Ptr, T.CreateZExt(N, T.getInt64Ty()), MaybeAlign(8),
                        AtomicOrdering::Monotonic);
    }
  }
}

// Counts one run of an edge of the clone: in its source when that has one
// successor (an exit edge: at the end of its block), else in its target when
// that has one predecessor; else, from a conditional branch, in the source by
// the branch condition (no block of its own: a loop's back edge, a self loop
// after optimization, would pay a jump every iteration); else in a block of
// its own on the (critical) edge. Returns the block the count is in.
BasicBlock *countEdge(BasicBlock *From, uint32_t Succ, AllocaInst *Counter) {
  Instruction *TI = From->getTerminator();
  if (Succ == CounterEdge::ExitEdge || TI->getNumSuccessors() == 1) {
    IRBuilder<> At(TI);
    increment(At, Counter, At.getInt32(1));
    return From;
  }
  BasicBlock *To = TI->getSuccessor(Succ);
  if (To->hasNPredecessors(1)) { // `br %c, %x, %x` gives %x two
    IRBuilder<> At(To, To->getFirstInsertionPt());
    increment(At, Counter, At.getInt32(1));
    return To;
  }
  if (auto *Br = dyn_cast<BranchInst>(TI)) {
    IRBuilder<> At(Br);
    Value *Taken = Succ == 0 ? Br->getCondition() : At.CreateNot(Br->getCondition());
    increment(At, Counter, At.CreateZExt(Taken, At.getInt32Ty()));
    return From;
  }
  BasicBlock *Mid = SplitCriticalEdge(TI, Succ, CriticalEdgeSplittingOptions(), "divopt.edge");
  if (!Mid)
    report_fatal_error(Twine("divopt: cannot split the edge from ") + From->getName() + " to " +
                       To->getName() + " in " + From->getParent()->getName() +
                       " to count it");
  IRBuilder<> At(Mid->getTerminator());
  increment(At, Counter, At.getInt32(1));
  return Mid;
}

// Counting an edge costs an add where it runs; a critical edge out of
// anything but a `br` also costs a block and a jump of its own, so it weighs
// double in the tree's favour.
constexpr double SplitEdgeWeight = 2.0;

} // namespace

std::vector<CounterEdge> profileCounters(Function &Kernel, const BlockNumbering &Numbering) {
  DominatorTree DT(Kernel);
  PostDominatorTree PDT(Kernel);
  LoopInfo LI(DT);
  BranchProbabilityInfo BPI(Kernel, LI, nullptr, &DT, &PDT);
  BlockFrequencyInfo BFI(Kernel, BPI, LI);
  double Entry = double(BFI.getEntryFreq().getFrequency());
  Successors Succ(Numbering.size());
  std::vector<std::vector<double>> Weights(Numbering.size());
  for (unsigned Id = 0; Id < Numbering.size(); ++Id) {
    BasicBlock *BB = Numbering.Blocks[Id];
    double Freq = Entry > 0 ? double(BFI.getBlockFreq(BB).getFrequency()) / Entry : 1.0;
    Instruction *TI = BB->getTerminator();
    unsigned N = TI->getNumSuccessors();
    for (unsigned S = 0; S < N; ++S) {
      BasicBlock *To = TI->getSuccessor(S);
      Succ[Id].push_back(Numbering.Id.lookup(To));
      BranchProbability P = BPI.getEdgeProbability(BB, S);
      double W = Freq * double(P.getNumerator()) / double(P.getDenominator());
      bool Splits = !isa<BranchInst>(TI) && isCriticalEdge(TI, S);
      Weights[Id].push_back(Splits ? W * SplitEdgeWeight : W);
    }
    if (N == 0)
      Weights[Id].push_back(Freq);
  }
  return chooseCountedEdges(Succ, Weights);
}

bool profileCloneSamplesBranches(const Function &Kernel) {
  for (const BasicBlock &BB : Kernel)
    for (const Instruction &I : BB)
      if (auto *Call = dyn_cast<CallBase>(&I); Call && Call->isInlineAsm())
        return false;
  return true;
}

namespace {

// The clone's body with a new entry block, which the counters' allocas and
// the thread geometry go into; the kernel's own static allocas move there
// too, so that they stay static whatever follows. Twice: the body is also
// copied (".sampled"), for the thread blocks that count branches
// (abi::BranchSamplePeriod), and the entry picks a copy. Two copies rather
// than a test at every branch: a uniform branch around each count still cost
// Mandelbrot's inner loop 2.4x its original (H100).
struct VersionedBody {
  BasicBlock *Entry;           // the new entry; its terminator is added last
  ClonedBlocks Plain, Sampled; // numbered blocks and returns of each copy
};

VersionedBody versionBody(Function &F, const ClonedBlocks &Plain, bool Twice) {
  BasicBlock *OldEntry = &F.getEntryBlock();
  SmallVector<BasicBlock *, 32> Body;
  for (BasicBlock &BB : F)
    Body.push_back(&BB);
  BasicBlock *Entry = BasicBlock::Create(F.getContext(), "divopt.entry", &F, OldEntry);
  for (Instruction &I : make_early_inc_range(*OldEntry))
    if (auto *AI = dyn_cast<AllocaInst>(&I); AI && AI->isStaticAlloca())
      AI->moveBefore(*Entry, Entry->end());
  VersionedBody V{Entry, Plain, Plain};
  if (!Twice)
    return V;
  ValueToValueMapTy Map;
  SmallVector<BasicBlock *, 32> Copies;
  for (BasicBlock *BB : Body) {
    BasicBlock *Copy = CloneBasicBlock(BB, Map, ".sampled", &F);
    Map[BB] = Copy;
    Copies.push_back(Copy);
  }
  remapInstructionsInBlocks(Copies, Map);
  V.Sampled = {};
  for (BasicBlock *BB : Plain.Blocks)
    V.Sampled.Blocks.push_back(cast<BasicBlock>(Map[BB]));
  for (ReturnInst *Ret : Plain.Returns)
    V.Sampled.Returns.push_back(cast<ReturnInst>(Map[Ret]));
  return V;
}

} // namespace

Function *createProfileClone(Function &Kernel, const BlockNumbering &Numbering) {
  // Chosen on the original kernel, as the notes record them.
  std::vector<CounterEdge> Counted = profileCounters(Kernel, Numbering);
  PointerType *GlobalPtr = PointerType::get(Kernel.getContext(), /*AddressSpace=*/1);
  ValueToValueMapTy VMap;
  Function *Clone = cloneWithHiddenParams(
      Kernel, abi::ProfileCloneSuffix,
      {{GlobalPtr, "divopt.counts"}, {GlobalPtr, "divopt.branches"},
       {GlobalPtr, "divopt.overflow"}, {GlobalPtr, "divopt.hashes"}},
      &VMap);
  Argument *Counts = Clone->getArg(Kernel.arg_size());
  Argument *Branches = Clone->getArg(Kernel.arg_size() + 1);
  Argument *Overflow = Clone->getArg(Kernel.arg_size() + 2);
  Argument *Hashes = Clone->getArg(Kernel.arg_size() + 3);
  static_assert(abi::ProfileHiddenParams == 4, "counts, branches, overflow, hashes");
  const bool Sampling = profileCloneSamplesBranches(Kernel);
  VersionedBody V = versionBody(*Clone, clonedBlocks(Numbering, VMap), Sampling);

  IRBuilder<> B(V.Entry);
  Counters C;
  auto NewCounter = [&](Type *T, uint64_t Initial, const Twine &Name) {
    AllocaInst *A = B.CreateAlloca(T, nullptr, Name);
    B.CreateStore(ConstantInt::get(T, Initial), A);
    return A;
  };
  for (unsigned E = 0; E < Counted.size(); ++E)
    C.Edges.push_back(NewCounter(B.getInt32Ty(), 0, "divopt.edge" + Twine(E)));
  for (unsigned K = 0; K < Numbering.BranchBlocks.size(); ++K) {
    C.BranchExec.push_back(NewCounter(B.getInt32Ty(), 0, "divopt.br" + Twine(K) + ".exec"));
    C.BranchDiv.push_back(NewCounter(B.getInt32Ty(), 0, "divopt.br" + Twine(K) + ".div"));
  }
  AllocaInst *Hash[2] = {NewCounter(B.getInt64Ty(), 0, "divopt.hash0"),
                         NewCounter(B.getInt64Ty(), 0, "divopt.hash1")};
  ThreadGeometry G = emitThreadGeometry(B);
  Value *Base16 = nullptr; // straight-line code stores no counts
  if (!Counted.empty()) {
    Value *Row = B.CreateMul(B.CreateLShr(G.Gtid, 5), B.getInt64(uint64_t(Counted.size()) * 32));
    Value *Lane = B.CreateAnd(G.Gtid, 31);
    Base16 = B.CreateInBoundsGEP(B.getInt16Ty(), Counts,
                                 B.CreateAdd(Row, Lane, "divopt.slot0"), "divopt.counts.base");
  }
  // Only the sampled blocks count branches in a sampled launch, so their
  // buckets span Period times as many threads (abi::branchBucketThreads).
  Value *BucketShift = B.getInt64(Log2_64(abi::BranchBucketThreads));
  if (Sampling) {
    Value *Sampled = B.CreateICmpUGE(G.Threads, B.getInt64(abi::BranchSampleMinThreads),
                                     "divopt.launch.sampled");
    BucketShift = B.CreateSelect(
        Sampled, B.getInt64(Log2_64(abi::branchBucketThreads(abi::BranchSampleMinThreads, true))),
        BucketShift, "divopt.bucket.shift");
    B.CreateCondBr(
        B.CreateOr(B.CreateNot(Sampled),
                   B.CreateICmpEQ(B.CreateAnd(G.Block, B.getInt64(abi::BranchSamplePeriod - 1)),
                                  B.getInt64(0)),
                   "divopt.branch.sampled"),
        V.Sampled.Blocks[0], V.Plain.Blocks[0]);
  } else {
    B.CreateBr(V.Plain.Blocks[0]);
  }

  // Branches first: a switch's successors as they are in K, before counting
  // splits some of its edges (two cases into one block stay one way to go).
  SmallVector<BasicBlock *, 8> BranchCountedIn;
  for (unsigned K = 0; K < Numbering.BranchBlocks.size(); ++K) {
    Instruction *Term = V.Sampled.Blocks[Numbering.BranchBlocks[K]]->getTerminator();
    countBranch(Term, C.BranchExec[K], C.BranchDiv[K]);
    BranchCountedIn.push_back(Term->getParent());
  }
  // Splitting an edge adds a block to the clone only: the numbered blocks
  // and their terminators' successor order stay as the notes have them.
  // Without sampling both are the one body: counted once, with its branches.
  SmallVector<const ClonedBlocks *, 2> Copies{&V.Plain};
  if (Sampling)
    Copies.push_back(&V.Sampled);
  SmallVector<SmallVector<BasicBlock *, 16>, 2> EdgeCountedIn(Copies.size());
  for (unsigned Copy = 0; Copy < Copies.size(); ++Copy)
    for (unsigned E = 0; E < Counted.size(); ++E)
      EdgeCountedIn[Copy].push_back(
          countEdge(Copies[Copy]->Blocks[Counted[E].From], Counted[E].Succ, C.Edges[E]));

  // Where each count is stored: at the returns, or, in a large kernel
  // (abi::LargeProfileCounters), where it is final, found on the CFG with
  // every count in place. The stores split blocks, so each is placed by an
  // instruction chosen first: the terminator of its final point (after the
  // block's own counts), a return, or a bypass's source terminator.
  const bool Large = Counted.size() >= abi::LargeProfileCounters;
  const FinalPoint AtReturns;
  CounterFinalPoints Final(*Clone, Sampling ? V.Entry : nullptr);
  // The most a count can be: of its edge's runs, those of the block it is
  // counted in, in either copy.
  std::vector<uint64_t> MaxCount(Counted.size(), 0);
  {
    CountBounds Bounds(*Clone);
    for (unsigned Copy = 0; Copy < Copies.size(); ++Copy)
      for (unsigned E = 0; E < Counted.size(); ++E)
        MaxCount[E] = std::max(MaxCount[E], Bounds.maxRuns(EdgeCountedIn[Copy][E]));
  }
  MapVector<Instruction *, SmallVector<std::pair<unsigned, bool>, 4>> EdgesAt; // may overflow
  MapVector<Instruction *, SmallVector<unsigned, 4>> BranchesAt;
  MapVector<std::pair<Instruction *, BasicBlock *>, SmallVector<unsigned, 4>> ZeroOn;
  for (unsigned Copy = 0; Copy < Copies.size(); ++Copy)
    for (unsigned E = 0; E < Counted.size(); ++E) {
      BasicBlock *CountedIn = EdgeCountedIn[Copy][E];
      const FinalPoint &P = Large ? Final.of(CountedIn) : AtReturns;
      std::pair<unsigned, bool> Store{E, MaxCount[E] >= NarrowMarker};
      if (!P.At) {
        for (ReturnInst *Ret : Copies[Copy]->Returns)
          EdgesAt[Ret].push_back(Store);
        continue;
      }
      EdgesAt[P.At->getTerminator()].push_back(Store);
      for (auto [From, To] : P.Bypasses)
        ZeroOn[{From->getTerminator(), To}].push_back(E);
    }
  for (unsigned K = 0; K < BranchCountedIn.size(); ++K) {
    if (BasicBlock *At = Large ? Final.of(BranchCountedIn[K]).At : nullptr)
      BranchesAt[At->getTerminator()].push_back(K);
    else
      for (ReturnInst *Ret : V.Sampled.Returns)
        BranchesAt[Ret].push_back(K);
  }

  CounterSink S;
  S.G = G, S.Counts = Counts, S.Overflow = Overflow, S.NumCounters = unsigned(Counted.size());
  S.Base16 = Base16, S.BucketShift = BucketShift;
  if (Large) {
    S.Hash[0] = Hash[0], S.Hash[1] = Hash[1];
    // Fields of bit words for the counters whose counts are bounded below
    // 2^16 (as wide as the bound needs), in the order of the counters, a
    // field never across two words, up to abi::HashBitWords words (more
    // would hold registers through the whole kernel); the rest are
    // multiplied in.
    IRBuilder<> AtEntry(V.Entry, V.Entry->getFirstInsertionPt());
    unsigned Used = 32; // bits of the last word taken
    for (unsigned E = 0; E < Counted.size(); ++E) {
      if (MaxCount[E] >= (1u << 16))
        continue;
      unsigned Width = std::max(1u, unsigned(llvm::bit_width(MaxCount[E])));
      if (Used + Width > 32) {
        if (S.BitWords.size() == abi::HashBitWords)
          continue;
        S.BitWords.push_back(AtEntry.CreateAlloca(AtEntry.getInt32Ty(), nullptr,
                                                  "divopt.hash.bits" + Twine(S.BitWords.size())));
        AtEntry.CreateStore(AtEntry.getInt32(0), S.BitWords.back());
        Used = 0;
      }
      S.FieldOf[E] = {unsigned(S.BitWords.size() - 1), Used};
      Used += Width;
    }
  }
  for (auto &[TI, Es] : ZeroOn) {
    BasicBlock *To = TI.second;
    Instruction *Before;
    if (To->getUniquePredecessor() == TI.first->getParent()) {
      Before = &*To->getFirstInsertionPt();
    } else {
      unsigned Succ = 0;
      while (TI.first->getSuccessor(Succ) != To)
        ++Succ;
      BasicBlock *Mid = SplitCriticalEdge(
          TI.first, Succ, CriticalEdgeSplittingOptions().setMergeIdenticalEdges(),
          "divopt.bypass");
      if (!Mid)
        report_fatal_error(Twine("divopt: cannot split the edge into ") + To->getName() +
                           " in " + Clone->getName() + " to store counts");
      Before = Mid->getTerminator();
    }
    SmallVector<CounterValue, 16> Zeros;
    for (unsigned E : Es)
      Zeros.push_back({E, ConstantInt::get(Type::getInt32Ty(Clone->getContext()), 0), false});
    storeCounters(Before, Zeros, S);
  }
  for (auto &[Before, Es] : EdgesAt) {
    IRBuilder<> At(Before);
    SmallVector<CounterValue, 16> Values;
    for (auto [E, MayOverflow] : Es)
      Values.push_back({E, At.CreateLoad(At.getInt32Ty(), C.Edges[E]), MayOverflow});
    storeCounters(Before, Values, S);
  }
  for (auto &[Before, Ks] : BranchesAt)
    flushBranches(Before, Ks, C, S, Branches);
  // Last at each return, after every count: the thread's two hashes, when
  // the runtime asked for them (hashes not null, the same for the launch).
  if (Large)
    for (const ClonedBlocks *Copy : Copies)
      for (ReturnInst *Ret : Copy->Returns) {
        IRBuilder<> At(Ret);
        Value *Values[2] = {At.CreateLoad(At.getInt64Ty(), Hash[0]),
                            At.CreateLoad(At.getInt64Ty(), Hash[1])};
        SmallVector<Value *, 4> Words;
        for (AllocaInst *Word : S.BitWords)
          Words.push_back(At.CreateLoad(At.getInt32Ty(), Word));
        auto *Null = ConstantPointerNull::get(cast<PointerType>(Hashes->getType()));
        IRBuilder<> Then(SplitBlockAndInsertIfThen(
            At.CreateICmpNE(Hashes, Null, "divopt.wants.hashes"), Ret, false));
        for (unsigned Which = 0; Which < 2; ++Which)
          for (unsigned J = 0; J < Words.size(); ++J)
            Values[Which] = mad(Then, Then.CreateZExt(Words[J], Then.getInt64Ty()),
                                  Then.getInt64(hashMultiplier(Counted.size() + J, Which)),
                                  Values[Which]);
        Value *At0 = Then.CreateInBoundsGEP(Then.getInt64Ty(), Hashes,
                                            Then.CreateShl(G.Gtid, 1));
        Then.CreateStore(Values[0], At0);
        Then.CreateStore(Values[1], Then.CreateInBoundsGEP(Then.getInt64Ty(), At0,
                                                           Then.getInt64(1)));
      }

  for (BasicBlock *BB : S.Cold)
    BB->moveAfter(&Clone->back());

  SmallVector<AllocaInst *, 32> All(C.Edges.begin(), C.Edges.end());
  All.append(C.BranchExec.begin(), C.BranchExec.end());
  All.append(C.BranchDiv.begin(), C.BranchDiv.end());
  All.append({Hash[0], Hash[1]});
  All.append(S.BitWords.begin(), S.BitWords.end());
  DominatorTree DT(*Clone);
  PromoteMemToReg(All, DT);
  return Clone;
}

} // namespace divopt
