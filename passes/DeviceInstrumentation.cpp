#include "DeviceInstrumentation.h"
#include "BbvFeatures.h"
#include "BlockNumbering.h"
#include "CostInstrumentation.h"
#include "divopt/Abi.h"
#include "FeatureExtraction.h"
#include "KernelNotes.h"
#include "Kernels.h"
#include "ProfileInstrumentation.h"
#include "RedirectionTransform.h"
#include "RegroupSafety.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"

using namespace llvm;

namespace divopt {

namespace {

// -Rpass=divopt names the features of a kernel whose counts are all
// predictable; -Rpass-missed=divopt says, at the user's line to blame, why
// some are not.
void remarkFeatures(OptimizationRemarkEmitter &ORE, Function &K, const KernelFeatures &Features,
                    const Function *Clone) {
  unsigned Unpredictable = Features.unpredictableBlocks();
  if (Unpredictable == 0) {
    ORE.emit([&] {
      OptimizationRemark R("divopt", "Predictable", &K);
      R << "kernel '" << demangledName(K.getName()) << "': every basic block's count is ";
      if (Features.Features.empty())
        return R << "the same in every thread";
      R << "predictable from " << ore::NV("Features", unsigned(Features.Features.size()))
        << " feature(s)";
      for (unsigned F = 0; F < Features.Features.size(); ++F)
        R << (F ? ", " : ": ") << Features.Features[F].Expr;
      if (Clone)
        R << "; extracted by " << Clone->getName();
      return R;
    });
    return;
  }
  const BlockFeatures *First = nullptr;
  for (const BlockFeatures &B : Features.Blocks)
    if (!B.Predictable) {
      First = &B;
      break;
    }
  ORE.emit([&] {
    DiagnosticLocation Where(DebugLoc(userLocation(*First->Culprit)));
    return OptimizationRemarkMissed("divopt", "Unpredictable", Where,
                                    First->Culprit->getParent())
           << "kernel '" << demangledName(K.getName()) << "': the counts of "
           << ore::NV("Blocks", Unpredictable) << " of "
           << ore::NV("Total", unsigned(Features.Blocks.size()))
           << " basic blocks cannot be predicted from its inputs: " << First->Reason;
  });
}

} // namespace

json::Object collectNotes(Module &M) {
  json::Array Kernels;
  for (Function *K : userKernels(M)) {
    BlockNumbering Numbering(*K);
    Kernels.push_back(
        kernelNotes(*K, Numbering, regroupSafety(*K), analyzeFeatures(*K, Numbering)));
  }
  return moduleNotes(M, std::move(Kernels));
}

unsigned instrumentDeviceModule(Module &M) {
  std::vector<Function *> Kernels = userKernels(M);
  if (Kernels.empty())
    return 0;
  for (Function *K : Kernels) {
    BlockNumbering Numbering(*K);
    RegroupVerdict Verdict = regroupSafety(*K);
    KernelFeatures Features = analyzeFeatures(*K, Numbering);
    embedNotes(*K, moduleNotes(M, json::Array{kernelNotes(*K, Numbering, Verdict, Features)}));
    Function *Clone = createProfileClone(*K, Numbering);
    OptimizationRemarkEmitter ORE(K);
    remarkFeatures(ORE, *K, Features, createFeatureClone(*K, Features));
    if (Verdict.Safe) {
      Function *Redirect = createRedirectClone(*K);
      Function *Cost = createCostClone(*K, Numbering);
      ORE.emit([&] {
        OptimizationRemark R("divopt", "Regroupable", K);
        R << "kernel '" << demangledName(K->getName())
          << "' can be regrouped at launch: redirected clone " << Redirect->getName();
        if (Cost)
          return R << ", cost clone " << Cost->getName();
        return R << "; no cost clone, so no online mode: its parameters and "
                 << std::to_string(Numbering.Blocks.size()) << " block weights pass "
                 << std::to_string(abi::MaxKernelParamBytes) << " bytes";
      });
    } else {
      ORE.emit([&] {
        // At the user's line that makes regrouping unsafe, not inside a header.
        DiagnosticLocation Where(DebugLoc(userLocation(*Verdict.Culprit)));
        return OptimizationRemarkMissed("divopt", "NotRegroupable", Where,
                                        Verdict.Culprit->getParent())
               << "kernel '" << demangledName(K->getName()) << "' will not be regrouped: "
               << Verdict.Reason;
      });
    }
    ORE.emit([&] {
      return OptimizationRemark("divopt", "Instrumented", K)
             << "kernel '" << demangledName(K->getName()) << "': "
             << ore::NV("Blocks", Numbering.size()) << " basic blocks, "
             << ore::NV("Branches", unsigned(Numbering.BranchBlocks.size()))
             << " conditional branches counted in profile clone " << Clone->getName();
    });
  }
  return Kernels.size();
}

} // namespace divopt
