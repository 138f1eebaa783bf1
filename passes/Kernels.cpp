#include "Kernels.h"
#include "divopt/Abi.h"

#include "llvm/Demangle/Demangle.h"

using namespace llvm;

namespace divopt {

bool isKernel(const Function &F) {
  return !F.isDeclaration() && F.getCallingConv() == CallingConv::PTX_Kernel;
}

bool isDivOptClone(const Function &F) {
  return F.getName().ends_with(abi::ProfileCloneSuffix) ||
         F.getName().ends_with(abi::RedirectCloneSuffix) ||
         F.getName().ends_with(abi::FeatureCloneSuffix);
}

std::vector<Function *> userKernels(Module &M) {
  std::vector<Function *> Kernels;
  for (Function &F : M)
    if (isKernel(F) && !isDivOptClone(F))
      Kernels.push_back(&F);
  return Kernels;
}

std::string demangledName(StringRef Name) { return llvm::demangle(Name); }

} // namespace divopt
