// The pass's own analysis of a translation unit's kernels, for divopt
// rewrite: the device side is compiled in-process (clang's CodeGen, the
// invocation's -O level and libdevice), and at the optimizer's last
// extension point, where the plugin runs, the same regroupSafety() and
// kernelNotes() judge and describe each kernel. The rewriter never decides
// on its own whether a kernel may be regrouped.
#pragma once
#include "clang/Basic/CodeGenOptions.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <string>
#include <vector>

namespace divopt::rewrite {

// Where an instruction is in one function of its inlining chain: the
// function (as its debug info names it: name and line), the position, and
// which inlined instance of the function it belongs to (null: not inlined).
struct SourceFrame {
  std::string Function;
  unsigned FunctionLine = 0;
  unsigned Line = 0, Column = 0;
  const void *Instance = nullptr;
};

// An instruction of the kernel's code (callees inlined into it included)
// with its latency-table key (docs/latency-keys.md) and its source frames,
// innermost first (none without debug info).
struct PricedInstruction {
  std::vector<SourceFrame> Frames;
  std::string Key;
};

struct KernelAnalysis {
  bool Safe = false;
  std::string Reason;                // the pass's -Rpass-missed reason when refused
  unsigned Line = 0, Column = 0;     // where the pass puts that remark (0: no line)
  llvm::json::Object Notes;          // the module notes the plugin would embed for it alone
  std::vector<PricedInstruction> Instructions;
};

// Device-side (mangled) kernel name -> its analysis.
using DeviceAnalysis = std::map<std::string, KernelAnalysis>;

// Makes the device compile configured by Options fill Out when its
// optimizer pipeline ends.
void analyzeAtOptimizerLast(clang::CodeGenOptions &Options, DeviceAnalysis &Out);

} // namespace divopt::rewrite
