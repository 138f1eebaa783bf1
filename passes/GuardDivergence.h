// Does a kernel diverge only at bounds guards?
//
// Online mode pays for each kernel's first launch of a shape with a cost-clone
// launch, a bound on the GPU and host time (about 0.1-0.3 ms on an H100), to
// learn whether some regrouping could gain. Most kernels of a real program
// cannot: the only branches that depend on the thread compare the global
// index blockIdx.x * blockDim.x + threadIdx.x with a value the whole launch
// shares (`if (i < n)`, `if (i >= n) return`). In a 1-D launch such a
// comparison splits the threads into a prefix and a suffix, so it diverges
// in at most one warp, whatever the layout: no regrouping has anything to
// gain. Their notes say so ("divergence", docs/notes-format.md) and online
// mode runs them as written, without a decision.
//
// The analysis is conservative: a value varies between threads when it
// reads %tid, %ctaid or %laneid, memory other than the kernel's read-only
// by-value parameters and __constant__ variables, an atomic or a call, or
// is computed from one that varies, or is a phi where paths from both sides
// of a branch that varies meet. Every conditional branch whose condition
// varies must be a guard: and/or/not of comparisons between a launch-uniform
// value and the global x index (zero- or sign-extended, plus or minus a
// uniform value, times or shifted by a positive constant), or a grid-stride
// loop's index (that index plus a uniform step per iteration). A switch that
// varies, a call of a function that branches, or an index built some other
// way (a block size written as a constant) is not. Wrongly saying "guards" only costs a
// regrouping online mode would have found; it never changes a result.
#pragma once
#include "llvm/IR/Function.h"
#include <string>

namespace divopt {

struct DivergenceVerdict {
  bool GuardsOnly = false;
  // The guards' comparisons: each moves the boundary of at most one warp.
  unsigned GuardCompares = 0;
  // Why not, for the notes ("" when GuardsOnly).
  std::string Reason;
};

DivergenceVerdict guardDivergence(const llvm::Function &Kernel);

} // namespace divopt
