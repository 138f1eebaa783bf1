#include "rewrite/DeviceAnalysis.h"
#include "BbvFeatures.h"
#include "BlockNumbering.h"
#include "InstructionMix.h"
#include "KernelNotes.h"
#include "Kernels.h"
#include "RegroupSafety.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/Passes/PassBuilder.h"

using namespace llvm;

namespace divopt::rewrite {
namespace {

KernelAnalysis analyzeKernel(Module &M, Function &K) {
  BlockNumbering Numbering(K);
  RegroupVerdict Verdict = regroupSafety(K);
  KernelAnalysis A;
  A.Safe = Verdict.Safe;
  A.Reason = Verdict.Reason;
  if (!Verdict.Safe && Verdict.Culprit)
    if (const DILocation *L = userLocation(*Verdict.Culprit)) {
      A.Line = L->getLine();
      A.Column = L->getColumn();
    }
  A.Notes = moduleNotes(
      M, json::Array{kernelNotes(K, Numbering, Verdict, analyzeFeatures(K, Numbering))});
  for (BasicBlock &BB : K)
    for (Instruction &I : BB) {
      std::optional<std::string> Key = latencyKey(I);
      if (!Key)
        continue;
      PricedInstruction P;
      P.Key = *Key;
      for (const DILocation *L = I.getDebugLoc().get(); L; L = L->getInlinedAt()) {
        const DISubprogram *F = L->getScope()->getSubprogram();
        P.Frames.push_back({F ? F->getName().str() : "", F ? F->getLine() : 0u, L->getLine(),
                            L->getColumn(), L->getInlinedAt()});
      }
      A.Instructions.push_back(std::move(P));
    }
  return A;
}

struct AnalyzePass : PassInfoMixin<AnalyzePass> {
  explicit AnalyzePass(DeviceAnalysis &Out) : Out(&Out) {}
  DeviceAnalysis *Out;
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    for (Function *K : userKernels(M))
      (*Out)[K->getName().str()] = analyzeKernel(M, *K);
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

} // namespace

void analyzeAtOptimizerLast(clang::CodeGenOptions &Options, DeviceAnalysis &Out) {
  Options.PassBuilderCallbacks.push_back([&Out](PassBuilder &PB) {
    PB.registerOptimizerLastEPCallback(
        [&Out](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
          MPM.addPass(AnalyzePass(Out));
        });
  });
}

} // namespace divopt::rewrite
