// Memory accesses whose address follows the thread id (out[tid],
// in[2 * tid + 1], row[blockIdx.x * blockDim.x + threadIdx.x]): coalesced in
// the original order, scattered once threads are regrouped. The model prices
// each as the cost of redirection (docs/model.md), so the notes count them
// per block.
#pragma once
#include "llvm/IR/BasicBlock.h"

#include <cstdint>
#include <vector>

namespace divopt {

// Loads, stores and atomics of BB whose pointer is computed from a %tid read
// through arithmetic, casts, address computation, selects or phis (not
// through memory: an index loaded from memory is data, not the thread id).
unsigned threadIndexedAccesses(const llvm::BasicBlock &BB);

// Loads, stores and atomics of BB whose pointer follows the thread id only
// through one load of a thread-indexed address: edges[j] for j from
// rowStart[tid] to rowStart[tid + 1]. Neighbouring threads' values there are
// usually neighbours too (a CSR row, a segment), so these accesses also
// spread over more lines when regrouping scatters the threads (SM-pipes,
// docs/model.md). A second load deep (dist[edges[j]]) is data.
unsigned threadIndexedIndirectAccesses(const llvm::BasicBlock &BB);

// For each access threadIndexedAccesses counts, in order: how many bytes its
// address moves from one lane to the next (%tid.x + 1), 0 where that is not
// a constant (a run-time multiplier, a division). in[tid] of floats: 4;
// frames[tid * 1024 + k]: 4096, which already gives every lane its own line
// as written, so regrouping scatters nothing more.
std::vector<unsigned> threadIndexedAccessSteps(const llvm::BasicBlock &BB);

// Where an access threadIndexedAccesses counts lies: the object its address
// is an offset into (a kernel parameter, a local array, a loaded pointer),
// the constant bytes its index adds to the thread's own (m[tid].a[2][1]: 36,
// 0 where nothing constant is added or it varies) and the bytes it moves.
// jacobi's 36 loads of one thread's 6x6 matrix share an object and differ by
// their offsets: a warp brings each sector from memory once for all of them.
struct AccessPlace {
  const llvm::Value *Object = nullptr;
  int64_t Offset = 0;
  unsigned Bytes = 0;
};
std::vector<AccessPlace> threadIndexedAccessPlaces(const llvm::BasicBlock &BB);

// For each access threadIndexedIndirectAccesses counts, in order: the bytes
// of the element it reads or writes (8 for a double).
std::vector<unsigned> threadIndexedIndirectBytes(const llvm::BasicBlock &BB);

} // namespace divopt
