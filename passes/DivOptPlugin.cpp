// libDivOpt.so: the divopt pass plugin.
//
//   clang++ -x cuda -fpass-plugin=libDivOpt.so ...   both jobs, at every -O level
//   opt -load-pass-plugin=libDivOpt.so -passes=divopt-instrument
//   opt -load-pass-plugin=libDivOpt.so -passes=divopt-print-notes -disable-output
//
// One pass serves both jobs of a CUDA compile: on the device module (NVPTX)
// it instruments kernels, on the host module it intercepts launches.
#include "DeviceInstrumentation.h"
#include "LaunchInterception.h"
#include "compat/PassPluginCompat.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace divopt {
namespace {

struct InstrumentPass : PassInfoMixin<InstrumentPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    bool Changed = Triple(M.getTargetTriple()).isNVPTX() ? instrumentDeviceModule(M) > 0
                                                         : interceptLaunches(M) > 0;
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  // Instrumentation must happen at -O0 and in optnone functions too.
  static bool isRequired() { return true; }
};

struct PrintNotesPass : PassInfoMixin<PrintNotesPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    outs() << formatv("{0:2}", json::Value(collectNotes(M))) << "\n";
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

void registerPasses(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "divopt-instrument") {
          MPM.addPass(InstrumentPass());
          return true;
        }
        if (Name == "divopt-print-notes") {
          MPM.addPass(PrintNotesPass());
          return true;
        }
        return false;
      });
  // Last in the optimizer pipeline: the blocks we number are the blocks that
  // run, after inlining and loop transforms. Also runs at -O0.
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
        MPM.addPass(InstrumentPass());
      });
}

} // namespace
} // namespace divopt

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "DivOpt", "0.1", divopt::registerPasses};
}
