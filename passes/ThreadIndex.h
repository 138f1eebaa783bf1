// Reading a thread's position from the PTX special registers and turning
// (x, y, z) coordinates into linear ids and back, x fastest, as CUDA
// linearizes 1-D, 2-D and 3-D grids and blocks. Shared by the clones.
#pragma once
#include "llvm/IR/IRBuilder.h"

#include <optional>

namespace divopt {

struct Dim3Values {
  llvm::Value *X, *Y, *Z;
};

// 32-bit values of %tid, %ntid, %ctaid, %nctaid.
Dim3Values readTid(llvm::IRBuilder<> &B);
Dim3Values readNtid(llvm::IRBuilder<> &B);
Dim3Values readCtaid(llvm::IRBuilder<> &B);
Dim3Values readNctaid(llvm::IRBuilder<> &B);
Dim3Values zext64(llvm::IRBuilder<> &B, Dim3Values V);

// Which of those registers V reads (any of its x, y, z), if it is such a read.
enum class ThreadRegister { Tid, Ntid, Ctaid, Nctaid };
std::optional<ThreadRegister> threadRegisterRead(const llvm::Value *V);

// (z * ny + y) * nx + x, and its product nx * ny * nz.
llvm::Value *linearize(llvm::IRBuilder<> &B, Dim3Values I, Dim3Values N);
llvm::Value *volume(llvm::IRBuilder<> &B, Dim3Values N);
Dim3Values delinearize(llvm::IRBuilder<> &B, llvm::Value *L, Dim3Values N,
                       const llvm::Twine &Name);

// Linear global thread id and total thread count of the launch, in 64 bits
// (per-thread arrays index slot * nthreads + gtid, past 2^32 in big launches).
struct ThreadGeometry {
  llvm::Value *Gtid;
  llvm::Value *Threads;
  llvm::Value *Block; // the thread block's linear index
};
ThreadGeometry emitThreadGeometry(llvm::IRBuilder<> &B);

} // namespace divopt
