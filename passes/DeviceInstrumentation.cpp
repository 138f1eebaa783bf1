#include "DeviceInstrumentation.h"
#include "BlockNumbering.h"
#include "KernelNotes.h"
#include "Kernels.h"
#include "ProfileInstrumentation.h"
#include "RedirectionTransform.h"
#include "RegroupSafety.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"

using namespace llvm;

namespace divopt {

json::Object collectNotes(Module &M) {
  json::Array Kernels;
  for (Function *K : userKernels(M))
    Kernels.push_back(kernelNotes(*K, BlockNumbering(*K), regroupSafety(*K)));
  return moduleNotes(M, std::move(Kernels));
}

unsigned instrumentDeviceModule(Module &M) {
  std::vector<Function *> Kernels = userKernels(M);
  if (Kernels.empty())
    return 0;
  json::Array Notes;
  for (Function *K : Kernels) {
    BlockNumbering Numbering(*K);
    RegroupVerdict Verdict = regroupSafety(*K);
    Notes.push_back(kernelNotes(*K, Numbering, Verdict));
    Function *Clone = createProfileClone(*K, Numbering);
    OptimizationRemarkEmitter ORE(K);
    if (Verdict.Safe) {
      Function *Redirect = createRedirectClone(*K);
      ORE.emit([&] {
        return OptimizationRemark("divopt", "Regroupable", K)
               << "kernel '" << demangledName(K->getName())
               << "' can be regrouped at launch: redirected clone " << Redirect->getName();
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
  embedNotes(M, moduleNotes(M, std::move(Notes)));
  return Kernels.size();
}

} // namespace divopt
