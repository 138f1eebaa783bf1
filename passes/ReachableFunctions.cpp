#include "ReachableFunctions.h"

#include "llvm/IR/InstIterator.h"

using namespace llvm;

namespace divopt {

const Function *ReachableFunctions::followedCallee(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || Callee->isIntrinsic() || Callee->isDeclaration())
    return nullptr;
  return Callee;
}

ReachableFunctions::ReachableFunctions(const Function &Root) {
  Functions.push_back(&Root);
  ReachedBy[&Root] = nullptr;
  for (unsigned Next = 0; Next < Functions.size(); ++Next)
    for (const Instruction &I : instructions(*Functions[Next]))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (const Function *Callee = followedCallee(*Call);
            Callee && ReachedBy.try_emplace(Callee, Call).second)
          Functions.push_back(Callee);
}

SmallVector<const CallBase *, 4> ReachableFunctions::chainTo(const Function &F) const {
  SmallVector<const CallBase *, 4> Chain;
  for (const CallBase *Call = ReachedBy.lookup(&F); Call;
       Call = ReachedBy.lookup(Call->getFunction()))
    Chain.push_back(Call);
  std::reverse(Chain.begin(), Chain.end());
  return Chain;
}

} // namespace divopt
