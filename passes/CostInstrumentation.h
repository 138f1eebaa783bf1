// Device job: the cost clone of a regroupable kernel.
//
// K__divopt_cost takes K's parameters plus weights and cost
// (abi::CostCloneSuffix). It runs K's code, so the runtime can launch it
// instead of K and still compute the user's results, and each thread sums the
// weight of every block it runs in one float register and stores the sum once
// at each return: the thread's cost, priced with the latency table, from a
// launch that had to run anyway, for one add per block and one store per
// thread (the profile clone keeps a counter per block and writes them all).
// Only kernels regroupSafety() accepts, the ones the runtime may regroup.
#pragma once
#include "BlockNumbering.h"
#include "llvm/IR/Function.h"

namespace divopt {

llvm::Function *createCostClone(llvm::Function &Kernel, const BlockNumbering &Numbering);

} // namespace divopt
