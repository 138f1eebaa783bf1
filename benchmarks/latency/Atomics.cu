// Atomics (seed 004). The table's atom.global and atom.shared are dependent
// chains of atomicAdd whose returned value is the next operand, every lane
// on its own consecutive word (one request per warp, no conflict). The
// sweeps time a loop of accesses per warp with clock64 on a full GPU (one
// 256-thread block per SM):
//   patterns: all-conflict (the block's threads on one word), uncoalesced
//     (each thread its own word, 128 bytes apart; in shared memory that is
//     one bank) and coalesced (consecutive words), each for atomicAdd whose
//     value is used, atomicAdd as a reduction (value unused: RED) and a
//     plain load+store, with and without 50 dependent FMAs between accesses;
//   lock width: lanes 0..7 of each warp 4 KiB apart, the warps of a block
//     OFFSET bytes apart (seed 004's layout): when warps slow each other
//     down, their words share a lock;
//   contention: 1..32 lanes of one warp on one word.
#include "Chain.cuh"

namespace ops {
using latency::SassCount;

#define OP(NAME, KEY, HOW)                                                               \
  static constexpr const char *Key = KEY, *Name = #NAME, *Minus = "", *How = HOW

struct AtomicChain : Medium {
  unsigned P;
  static constexpr bool Continues = false;
  __device__ void publish(void *Sink) const { store(Sink, 0, P); }
};
struct AtomGlobal : AtomicChain {
  OP(AtomGlobal, "atom.global", "atomicAdd(&word[lane], p) returning p, global memory");
  static constexpr SassCount Sass[] = {{"ATOMG\\.E\\.ADD.*", 1}};
  unsigned long long Word;
  __device__ void init(const latency::ChainArgs &A) {
    Word = reinterpret_cast<unsigned long long>(A.Buffer) + 4 * (threadIdx.x % 32);
    P = 1;
  }
  __device__ void step() {
    asm volatile("atom.global.add.u32 %0, [%1], %0;" : "+r"(P) : "l"(Word) : "memory");
  }
};
struct AtomShared : AtomicChain {
  OP(AtomShared, "atom.shared", "atomicAdd(&word[lane], p) returning p, shared memory");
  static constexpr SassCount Sass[] = {{"ATOMS\\.ADD.*", 1}};
  unsigned Word;
  __device__ void init(const latency::ChainArgs &) {
    __shared__ unsigned Words[32];
    Words[threadIdx.x % 32] = 0;
    __syncwarp();
    asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }"
        : "=r"(Word)
        : "l"(Words + threadIdx.x % 32));
    P = 1;
  }
  __device__ void step() {
    asm volatile("atom.shared.add.u32 %0, [%1], %0;" : "+r"(P) : "r"(Word) : "memory");
  }
};
#undef OP
} // namespace ops

// Where each thread's word is, in bytes; lanes from Active on sit out.
struct Layout {
  long long Block, Warp, Lane;
  int Active;
};

enum Kind { Atomic, Reduction, LoadStore };
constexpr int Compute = 50; // dependent FMAs between accesses, as in seed 004

template <bool Shared, int K> __device__ void access(unsigned long long Address, unsigned &V) {
  if constexpr (Shared) {
    unsigned A = unsigned(Address);
    if constexpr (K == Atomic)
      asm volatile("atom.shared.add.u32 %0, [%1], %0;" : "+r"(V) : "r"(A) : "memory");
    else if constexpr (K == Reduction)
      asm volatile("red.shared.add.u32 [%0], %1;" ::"r"(A), "r"(V) : "memory");
    else
      asm volatile("{ .reg .u32 t; ld.shared.u32 t, [%1]; add.u32 %0, t, %0; st.shared.u32 [%1], %0; }"
                   : "+r"(V)
                   : "r"(A)
                   : "memory");
  } else {
    if constexpr (K == Atomic)
      asm volatile("atom.global.add.u32 %0, [%1], %0;" : "+r"(V) : "l"(Address) : "memory");
    else if constexpr (K == Reduction)
      asm volatile("red.global.add.u32 [%0], %1;" ::"l"(Address), "r"(V) : "memory");
    else
      asm volatile("{ .reg .u32 t; ld.global.u32 t, [%1]; add.u32 %0, t, %0; st.global.u32 [%1], %0; }"
                   : "+r"(V)
                   : "l"(Address)
                   : "memory");
  }
}

// Each warp's lane 0 records the cycles of Iters accesses.
template <bool Shared, int K, int Fmas>
__global__ void atomicLoop(char *Global, Layout L, int Iters, long long *Cycles, float *Sink) {
  extern __shared__ unsigned Pool[];
  unsigned Lane = threadIdx.x % 32, Warp = threadIdx.x / 32;
  long long Offset = Warp * L.Warp + Lane * L.Lane;
  unsigned long long Address;
  if constexpr (Shared) {
    unsigned Base;
    asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(Base) : "l"(Pool));
    Address = Base + Offset;
  } else {
    Address = reinterpret_cast<unsigned long long>(Global) + blockIdx.x * L.Block + Offset;
  }
  unsigned V = 1;
  float F = float(Lane);
  long long T0 = clock64();
  if (Lane < unsigned(L.Active)) {
#pragma unroll 1
    for (int I = 0; I < Iters; ++I) {
      access<Shared, K>(Address, V);
#pragma unroll
      for (int J = 0; J < Fmas; ++J)
        F = fmaf(F, 1.0001f, 0.5f);
    }
  }
  long long T1 = clock64();
  if (Lane == 0)
    Cycles[blockIdx.x * (blockDim.x / 32) + Warp] = (T1 - T0) / Iters;
  Sink[0] = F + float(V);
}

namespace latency {
namespace {

constexpr int Threads = 256, SharedBytes = 33 * 1024; // a block per SM, its shared words

struct Buffers {
  char *Global;
  long long *Cycles;
  float *Sink;
  Buffers(const Context &C) {
    CHECK(cudaMalloc(&Global, size_t(C.Prop.multiProcessorCount) * 64 * 1024));
    CHECK(cudaMemset(Global, 0, size_t(C.Prop.multiProcessorCount) * 64 * 1024));
    CHECK(cudaMalloc(&Cycles, size_t(C.Prop.multiProcessorCount) * 32 * sizeof(long long)));
    CHECK(cudaMalloc(&Sink, sizeof(float)));
  }
  ~Buffers() {
    cudaFree(Global);
    cudaFree(Cycles);
    cudaFree(Sink);
  }
};

// Cycles per access of every warp that took part, over C.Repeat launches.
template <bool Shared, int K, int Fmas>
std::vector<double> perAccess(const Context &C, Buffers &B, Layout L, int Blocks, int BlockThreads,
                              int Iters) {
  std::vector<double> Out;
  int Warps = Blocks * BlockThreads / 32;
  for (int Launch = 0; Launch <= C.Repeat; ++Launch) {
    atomicLoop<Shared, K, Fmas><<<Blocks, BlockThreads, Shared ? SharedBytes : 0>>>(
        B.Global, L, Iters, B.Cycles, B.Sink);
    CHECK(cudaGetLastError());
    std::vector<long long> H(Warps);
    CHECK(cudaMemcpy(H.data(), B.Cycles, Warps * sizeof(long long), cudaMemcpyDeviceToHost));
    if (Launch > 0) // the first launch warms up
      Out.insert(Out.end(), H.begin(), H.end());
  }
  return Out;
}

Point point(double X, const std::vector<double> &Samples) {
  Summary S = summarize(Samples);
  return {X, S.Median, S.Spread};
}

template <bool Shared> void patterns(Context &C, Results &R, Buffers &B) {
  const char *Space = Shared ? "shared" : "global";
  const Layout Layouts[] = {
      {128, 0, 0, 32},                 // all-conflict: one word per block
      {Threads * 128, 32 * 128, 128, 32}, // uncoalesced
      {Threads * 4, 32 * 4, 4, 32},       // coalesced
  };
  Sweep S{std::string("atomics-") + Space + "-patterns", "atomics",
          std::string("Atomics by access pattern, ") + Space + " memory, one block per SM",
          "pattern: 1 all-conflict, 2 uncoalesced, 3 coalesced", "cycles per access per warp",
          false, {}, ""};
  const char *Names[] = {"atomicAdd, value used", "atomicAdd as reduction", "load + store"};
  int Blocks = C.Prop.multiProcessorCount;
  for (int Fmas : {0, Compute})
    for (int K : {Atomic, Reduction, LoadStore}) {
      Series Line{std::string(Names[K]) + (Fmas ? ", 50 FMAs between" : ""), {}};
      for (int P = 0; P < 3; ++P) {
        C.Report->step(std::string(Space) + " " + Names[K] + ", pattern " + std::to_string(P + 1));
        std::vector<double> V;
        if (K == Atomic)
          V = Fmas ? perAccess<Shared, Atomic, Compute>(C, B, Layouts[P], Blocks, Threads, 64)
                   : perAccess<Shared, Atomic, 0>(C, B, Layouts[P], Blocks, Threads, 64);
        else if (K == Reduction)
          V = Fmas ? perAccess<Shared, Reduction, Compute>(C, B, Layouts[P], Blocks, Threads, 64)
                   : perAccess<Shared, Reduction, 0>(C, B, Layouts[P], Blocks, Threads, 64);
        else
          V = Fmas ? perAccess<Shared, LoadStore, Compute>(C, B, Layouts[P], Blocks, Threads, 64)
                   : perAccess<Shared, LoadStore, 0>(C, B, Layouts[P], Blocks, Threads, 64);
        Line.Points.push_back(point(P + 1, V));
      }
      S.Lines.push_back(Line);
    }
  R.Sweeps.push_back(S);
}

void lockWidth(Context &C, Results &R, Buffers &B) {
  Sweep S{"atomics-lock-width", "atomics", "Atomic conflicts by address offset between warps",
          "offset between the warps' words (bytes)", "cycles per atomicAdd per warp", true,
          {{"8 warps per block, 8 lanes each", {}}}, ""};
  double Same = 0;
  for (int Offset = 0; Offset <= 512; Offset = Offset ? 2 * Offset : 4) {
    C.Report->step("lock width, offset " + std::to_string(Offset));
    Layout L{32768, Offset, 4096, 8};
    Summary V = summarize(perAccess<false, Atomic, 0>(C, B, L, C.Prop.multiProcessorCount, Threads, 64));
    if (Offset == 0)
      Same = V.Median;
    else
      S.Lines[0].Points.push_back({double(Offset), V.Median, V.Spread});
  }
  // The lock width: the smallest offset from which conflicts cost no more
  // than 10% over the widest offset's time.
  const std::vector<Point> &P = S.Lines[0].Points;
  double Free = P.back().Median, Width = P.back().X;
  for (auto It = P.rbegin(); It != P.rend() && It->Median <= 1.1 * Free; ++It)
    Width = It->X;
  char Text[256];
  std::snprintf(Text, sizeof Text,
                "All warps on one word: %.1f cycles. Conflicts stop costing at an offset of %.0f "
                "bytes: the atomic unit locks %.0f-byte granules.",
                Same, Width, Width);
  S.Finding = Text;
  R.Sweeps.push_back(S);
}

void contention(Context &C, Results &R, Buffers &B) {
  Sweep S{"atomics-contention", "atomics", "atomicAdd on one word by 1..32 lanes of one warp",
          "lanes on the word", "cycles per atomicAdd (warp instruction)", false,
          {{"global", {}}, {"shared", {}}}, ""};
  for (int Lanes = 1; Lanes <= 32; ++Lanes) {
    C.Report->step("contention, " + std::to_string(Lanes) + " lanes");
    Layout L{0, 0, 0, Lanes};
    S.Lines[0].Points.push_back(point(Lanes, perAccess<false, Atomic, 0>(C, B, L, 1, 32, 256)));
    S.Lines[1].Points.push_back(point(Lanes, perAccess<true, Atomic, 0>(C, B, L, 1, 32, 256)));
  }
  R.Sweeps.push_back(S);
}

} // namespace

void runAtomics(Context &C, Results &R) {
  {
    void *Words;
    CHECK(cudaMalloc(&Words, 32 * sizeof(unsigned)));
    CHECK(cudaMemset(Words, 0, 32 * sizeof(unsigned)));
    ChainArgs A;
    A.Buffer = Words;
    measureChain<ops::AtomGlobal>(C, R, "atomics", A);
    CHECK(cudaFree(Words));
  }
  measureChain<ops::AtomShared>(C, R, "atomics");
  Buffers B(C);
  patterns<false>(C, R, B);
  patterns<true>(C, R, B);
  lockWidth(C, R, B);
  contention(C, R, B);
}

void describeAtomics(std::vector<SassExpectation> &Out) {
  describeChain<ops::AtomGlobal>(Out);
  describeChain<ops::AtomShared>(Out);
  // The loops' bodies: one access, and the FMAs between accesses.
  // ptxas makes a shared reduction of a constant 1 a warp-wide ATOMS.POPC.INC.
  const char *Global[] = {"ATOMG\\.E\\.ADD.*", "REDG\\.E\\.ADD.*", "STG\\.E.*"};
  const char *Shared[] = {"ATOMS\\.ADD.*", "ATOMS\\..*", "STS.*"};
  for (int Space = 0; Space < 2; ++Space)
    for (int K = 0; K < 3; ++K)
      for (int Fmas : {0, Compute}) {
        std::string Name = std::string("atomicLoop<") + (Space ? "true" : "false") + ", " +
                           std::to_string(K) + ", " + std::to_string(Fmas) + ">";
        Out.push_back({Name, Space ? Shared[K] : Global[K], 1, "atomics sweep"});
        Out.push_back({Name, "FFMA", Fmas, "atomics sweep"});
      }
}

} // namespace latency
