#include "CriticalPath.h"
#include "InstructionMix.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

#include <algorithm>
#include <vector>

using namespace llvm;

namespace divopt {
namespace {

struct ChainWeight {
  const char *Key;
  double Cycles;
};

constexpr ChainWeight Weights[] = {
#include "ChainWeights.inc"
};

// A key the table does not list weighs the median of its family ("setp" for
// setp.u32), else 4 cycles, about a dependent integer operation on sm_90.
class ChainWeights {
public:
  ChainWeights() {
    StringMap<std::vector<double>> Families;
    for (const ChainWeight &W : Weights) {
      Exact[W.Key] = W.Cycles;
      Families[StringRef(W.Key).split('.').first].push_back(W.Cycles);
    }
    for (auto &F : Families) {
      std::vector<double> &V = F.getValue();
      std::sort(V.begin(), V.end());
      Family[F.getKey()] = V[V.size() / 2];
    }
  }
  double operator()(StringRef Key) const {
    if (auto It = Exact.find(Key); It != Exact.end())
      return It->getValue();
    if (auto It = Family.find(Key.split('.').first); It != Family.end())
      return It->getValue();
    return 4.0;
  }

private:
  StringMap<double> Exact, Family;
};

using Mix = std::map<std::string, unsigned>;

Mix chainMix(const BasicBlock &BB, std::vector<const Function *> &InBody);

// What a call InstructionMix expands adds to a chain: its callee's blocks
// run one after another, each by its own longest chain.
Mix calleeChain(const Function &F, std::vector<const Function *> &InBody) {
  InBody.push_back(&F);
  Mix Out;
  for (const BasicBlock &BB : F)
    for (const auto &[Key, Count] : chainMix(BB, InBody))
      Out[Key] += Count;
  InBody.pop_back();
  return Out;
}

Mix chainMix(const BasicBlock &BB, std::vector<const Function *> &InBody) {
  static const ChainWeights Weight;
  struct Link {
    double Depth = 0; // cycles of the longest chain ending here
    const Instruction *From = nullptr;
  };
  DenseMap<const Instruction *, Link> Chains;
  DenseMap<const Instruction *, Mix> Calls; // the expanded calls' chains
  const Instruction *End = nullptr;
  double Longest = -1;
  for (const Instruction &I : BB) {
    if (isa<PHINode>(I))
      continue;
    Link L;
    for (const Value *Op : I.operands()) {
      auto It = Chains.find(dyn_cast<Instruction>(Op));
      if (It != Chains.end() && It->second.Depth > L.Depth)
        L = {It->second.Depth, It->first};
    }
    if (const Function *F = expandedCallee(I, InBody)) {
      Mix &Callee = Calls[&I] = calleeChain(*F, InBody);
      for (const auto &[Key, Count] : Callee)
        L.Depth += Weight(Key) * Count;
    } else if (auto Key = latencyKey(I)) {
      L.Depth += Weight(*Key);
    }
    Chains[&I] = L;
    if (L.Depth > Longest) {
      Longest = L.Depth;
      End = &I;
    }
  }
  Mix Out;
  for (const Instruction *I = End; I; I = Chains.lookup(I).From) {
    if (auto It = Calls.find(I); It != Calls.end()) {
      for (const auto &[Key, Count] : It->second)
        Out[Key] += Count;
    } else if (auto Key = latencyKey(*I)) {
      ++Out[*Key];
    }
  }
  return Out;
}

} // namespace

std::map<std::string, unsigned> criticalPathMix(const BasicBlock &BB) {
  std::vector<const Function *> InBody{BB.getParent()};
  return chainMix(BB, InBody);
}

} // namespace divopt
