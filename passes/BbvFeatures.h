// Which kernel inputs decide how often each basic block runs (issue 8).
//
// A block's count is a function of the conditions of the branches it is
// control dependent on (ControlDependence.h). Each condition is traced back
// through arithmetic, casts, compares, selects and phis to its leaves: the
// thread id, scalar parameters, and loads from a pointer parameter at an
// address computed from those alone. The leaves are the block's features,
// which the feature-extraction clone reads per thread before a launch, and
// from which a fitted model predicts the block's count.
//
// A loop's induction variable is allowed when ScalarEvolution sees an affine
// recurrence: the count is then a function of its start, step and bound.
// Anything else computed in a loop (Collatz: while (x != 1) x = f(x)),
// memory the kernel writes, atomics and calls make the block unpredictable,
// with the reason and the instruction to blame. Any doubt is "unpredictable":
// the analysis never rejects a kernel.
#pragma once
#include "BlockNumbering.h"
#include "FeatureSlice.h"

#include <string>
#include <vector>

namespace divopt {

struct Feature {
  enum class Kind { ThreadId, ScalarParam, ParamLoad };
  Kind K = Kind::ThreadId;
  unsigned Param = 0;   // ScalarParam, ParamLoad
  std::string Type;     // i32, u64, f32, ... ("" for ThreadId)
  std::string Expr;     // "tid", "n", "row_ptr[tid + 1]"
  const llvm::Value *Source = nullptr; // the argument, or the load
  GuardPath Guard;      // ParamLoad: when the kernel performs the load
};

struct BlockFeatures {
  std::vector<unsigned> Features; // indices into KernelFeatures::Features
  bool Predictable = false;
  std::string Reason;                        // why not
  const llvm::Instruction *Culprit = nullptr; // where, for the source line
};

struct KernelFeatures {
  std::vector<Feature> Features;    // only those some predictable block uses
  std::vector<BlockFeatures> Blocks; // by block id
  unsigned unpredictableBlocks() const;
};

KernelFeatures analyzeFeatures(llvm::Function &Kernel, const BlockNumbering &Numbering);

// "tid", "param", "load": the notes' "kind".
const char *featureKindName(Feature::Kind K);

} // namespace divopt
