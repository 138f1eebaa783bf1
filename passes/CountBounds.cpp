#include "CountBounds.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace divopt {

struct CountBounds::Analyses {
  DominatorTree DT;
  LoopInfo LI;
  TargetLibraryInfoImpl TLII;
  TargetLibraryInfo TLI;
  AssumptionCache AC;
  ScalarEvolution SE;
  DenseSet<const BasicBlock *> OnCycle;
  bool Irreducible;

  explicit Analyses(Function &F)
      : DT(F), LI(DT), TLII(F.getParent()->getTargetTriple()), TLI(TLII, &F), AC(F),
        SE(F, TLI, AC, DT, LI) {
    for (scc_iterator<Function *> I = scc_begin(&F); !I.isAtEnd(); ++I)
      if (I.hasCycle())
        for (BasicBlock *BB : *I)
          OnCycle.insert(BB);
    ReversePostOrderTraversal<Function *> RPOT(&F);
    Irreducible = containsIrreducibleCFG<BasicBlock *>(RPOT, LI);
  }
};

CountBounds::CountBounds(Function &F) : A(std::make_unique<Analyses>(F)) {}
CountBounds::~CountBounds() = default;

uint64_t CountBounds::maxRuns(const BasicBlock *BB) const {
  constexpr uint64_t Unbounded = UINT64_MAX;
  if (!A->OnCycle.count(BB))
    return 1;
  const Loop *L = A->LI.getLoopFor(BB);
  if (A->Irreducible || !L)
    return Unbounded;
  uint64_t Runs = 1;
  for (; L; L = L->getParentLoop()) {
    const auto *Max = dyn_cast<SCEVConstant>(A->SE.getConstantMaxBackedgeTakenCount(L));
    if (!Max || Max->getAPInt().getActiveBits() > 32)
      return Unbounded;
    uint64_t Trips = Max->getAPInt().getZExtValue() + 1;
    if (Runs > Unbounded / Trips)
      return Unbounded;
    Runs *= Trips;
  }
  return Runs;
}

} // namespace divopt
