// What `divopt rewrite` puts in CUDA sources built by nvcc (docs/rewrite.md).
//
// A kernel K that divopt's safety analysis accepts gets two copies beside it:
// K__divopt_redirect, K's code run as the logical thread the redirection
// array D names, and K__divopt_cost, K's code that also sums each thread's
// cost per source region (R regions in the file, their weights passed by
// value), and K__divopt_notes, its notes. Each <<<...>>> launch of K becomes
//
//   ::divopt::launch(K, K__divopt_redirect, K__divopt_cost, K__divopt_notes,
//                    grid, block[, shared[, stream]])(args...)
//
// which hands the three variants and K's notes to the runtime
// (libdivopt_rt), so DIVOPT_MODE=optimize regroups them exactly as it does
// kernels compiled with the plugin; in every other mode, and whenever
// divopt's side fails, K itself runs.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <tuple>
#include <utility>

extern "C" {

// The runtime's entry for rewritten launches: Stub is K's host stub, Args
// its arguments as for cudaLaunchKernel, Redirect and Cost the copies' host
// stubs, Notes K's notes document (docs/notes-format.md), whose blocks are
// the source regions the cost copy counts.
cudaError_t __divopt_launch_rewritten(const void *Stub, dim3 Grid, dim3 Block, void **Args,
                                      size_t SharedMem, cudaStream_t Stream,
                                      const void *Redirect, const void *Cost, const char *Notes);

// The same, at program start, so that online mode's warm-up prepares the
// kernel before its first launch, as it does the plugin's kernels.
void __divopt_register_rewritten(const void *Stub, const void *Redirect, const void *Cost,
                                 const char *Notes);
}

namespace divopt {

// The redirected copy's thread identity: the physical linear thread id
// (blocks, then threads, x fastest, as CUDA linearizes them) indexes D once,
// and the logical id D holds is decomposed back into threadIdx and blockIdx,
// as the plugin's redirected clone does (passes/RedirectionTransform.cpp).
struct LogicalIds {
  uint3 Thread, Block;
};

__device__ inline LogicalIds logicalIds(const unsigned *D) {
  const unsigned PerBlock = blockDim.x * blockDim.y * blockDim.z;
  const unsigned Physical =
      ((blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x) * PerBlock +
      (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const unsigned Logical = D[Physical];
  const unsigned T = Logical % PerBlock, B = Logical / PerBlock;
  return {make_uint3(T % blockDim.x, T / blockDim.x % blockDim.y, T / blockDim.x / blockDim.y),
          make_uint3(B % gridDim.x, B / gridDim.x % gridDim.y, B / gridDim.x / gridDim.y)};
}

// The cost copy's weights: weights[r], the cycles one pass through source
// region r costs, by value in the launch's parameters (the cost clone's
// contract, divopt/Abi.h), read as a __grid_constant__ parameter.
template <unsigned Regions> struct RegionWeights {
  float W[Regions];
};

// A rewritten kernel's notes (docs/notes-format.md): the R source regions
// its cost copy counts are their blocks.
template <unsigned Regions> struct RewrittenNotes {
  const char *Json;
};

// The cost copy's slot: cost[gtid], the global linear thread id in 64 bits.
__device__ inline unsigned long long globalThread() {
  const unsigned long long PerBlock =
      (unsigned long long)blockDim.x * blockDim.y * blockDim.z;
  const unsigned long long Block =
      ((unsigned long long)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  return Block * PerBlock + ((unsigned long long)threadIdx.z * blockDim.y + threadIdx.y) *
                                blockDim.x +
         threadIdx.x;
}

// One <<<...>>> launch, called with the launch's arguments. The arguments
// convert to K's parameter types as <<<...>>> converts them.
template <typename... Params> class RewrittenLaunch {
public:
  RewrittenLaunch(void (*Kernel)(Params...), const void *Redirect, const void *Cost,
                  const char *Notes, dim3 Grid, dim3 Block, size_t SharedMem, cudaStream_t Stream)
      : Kernel(Kernel), Redirect(Redirect), Cost(Cost), Notes(Notes), Grid(Grid), Block(Block),
        SharedMem(SharedMem), Stream(Stream) {}

  template <typename... Args> cudaError_t operator()(Args &&...Arguments) const {
    static_assert(sizeof...(Args) == sizeof...(Params),
                  "a kernel launch passes one argument per parameter");
    std::tuple<Params...> Values(std::forward<Args>(Arguments)...);
    return launch(Values, std::index_sequence_for<Params...>{});
  }

private:
  template <size_t... I>
  cudaError_t launch(std::tuple<Params...> &Values, std::index_sequence<I...>) const {
    // One more slot than parameters: a kernel without parameters still has an array.
    void *Pointers[sizeof...(Params) + 1] = {static_cast<void *>(&std::get<I>(Values))...};
    return __divopt_launch_rewritten(reinterpret_cast<const void *>(Kernel), Grid, Block, Pointers,
                                     SharedMem, Stream, Redirect, Cost, Notes);
  }

  void (*Kernel)(Params...);
  const void *Redirect, *Cost;
  const char *Notes;
  dim3 Grid, Block;
  size_t SharedMem;
  cudaStream_t Stream;
};

// The copies' types follow from K's (nvcc deduces nothing from a parameter
// pack followed by more parameters), so a copy that does not match K does
// not compile.
template <typename T> struct NotDeduced {
  using Type = T;
};

// Registers K's variants with the runtime (__divopt_register_rewritten);
// the rewritten file calls it once per kernel, from a static initializer.
template <typename... Params, unsigned Regions>
int registerRewritten(void (*Kernel)(Params...),
                      typename NotDeduced<void (*)(Params..., const unsigned *)>::Type Redirect,
                      typename NotDeduced<void (*)(Params..., RegionWeights<Regions>, float *)>::Type
                          Cost,
                      const RewrittenNotes<Regions> &Notes) {
  __divopt_register_rewritten(reinterpret_cast<const void *>(Kernel),
                              reinterpret_cast<const void *>(Redirect),
                              reinterpret_cast<const void *>(Cost), Notes.Json);
  return 0;
}

template <typename... Params, unsigned Regions>
RewrittenLaunch<Params...>
launch(void (*Kernel)(Params...),
       typename NotDeduced<void (*)(Params..., const unsigned *)>::Type Redirect,
       typename NotDeduced<void (*)(Params..., RegionWeights<Regions>, float *)>::Type Cost,
       const RewrittenNotes<Regions> &Notes, dim3 Grid, dim3 Block, size_t SharedMem = 0,
       cudaStream_t Stream = 0) {
  return {Kernel, reinterpret_cast<const void *>(Redirect), reinterpret_cast<const void *>(Cost),
          Notes.Json, Grid, Block, SharedMem, Stream};
}

} // namespace divopt
