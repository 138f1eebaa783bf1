// Device job: redirection through calls (issue 15).
//
// In K__divopt_redirect every read of %tid and %ctaid must see the logical
// thread, reads in the functions it calls included. Each function the clone
// can reach that reads them, itself or through its callees, gets one copy
// per module, F__divopt_ids (internal), with the logical ids appended as six
// i32 parameters (threadIdx x, y, z, then blockIdx x, y, z) that replace its
// reads and that it passes on to its own such callees; the redirected clone
// calls those copies. F itself is untouched: other kernels and K's profile,
// cost and feature clones, which run unredirected, still call it. Only for
// kernels regroupSafety() accepts: every call on the way is a direct call.
#pragma once
#include "ThreadIndex.h"

#include "llvm/IR/Function.h"

namespace divopt {

void redirectCallees(llvm::Function &RedirectClone, Dim3Values LogicalTid, Dim3Values LogicalCta);

} // namespace divopt
