// Memory latencies by pointer chasing: each load's address is the value the
// previous load returned, so the chain is the load latency and nothing else
// (full 64-bit pointers for global memory). The ring's working set decides
// the level hit: 8 KiB stays in L1; 4 MiB read with ld.global.cg (cached in
// L2 only) after a warm-up pass hits L2; four times the L2, visited in a
// pseudo-random order that never comes back within a run and flushed of
// the L2 beforehand, misses to DRAM.
//
// A store is timed as what it adds to a chase: each step stores the pointer
// it holds, then loads the next; the load's latency is subtracted. A store
// is not waited for, so this is its issue cost, what it delays the warp by.
//
// ld.global means an L1 hit (the key copies ld.global.l1): the model prices
// blocks of kernels whose memory latency occupancy hides (seed 002 section
// IV-B); the .l2 and .dram keys are there for a model that knows hit rates.
#include "Chain.cuh"

// A constant-bank ring: each entry the constant-bank address of the next.
__constant__ unsigned LatencyConstRing[64];

__global__ void constRingBase(unsigned *Base) { asm("mov.u32 %0, LatencyConstRing;" : "=r"(*Base)); }

namespace ops {
using latency::SassCount;

#define OP(NAME, KEY, MINUS, HOW)                                                        \
  static constexpr const char *Key = KEY, *Name = #NAME, *Minus = MINUS, *How = HOW

struct Loads {
  static constexpr int Short = 16, Long = 144;
};

// A 64-bit pointer chase through Args.Buffer, a ring the host built.
struct Chase : Loads {
  unsigned long long P, Scratch;
  static constexpr bool Continues = false;
  __device__ void init(const latency::ChainArgs &A) {
    P = reinterpret_cast<unsigned long long>(A.Buffer);
    Scratch = reinterpret_cast<unsigned long long>(A.Sink) + 8;
  }
  __device__ void publish(void *Sink) const { store(Sink, 0, P); }
};

#define GLOBAL_CHASE(NAME, KEY, MINUS, PTX, SASS, HOW)                                   \
  struct NAME : Chase {                                                                  \
    OP(NAME, KEY, MINUS, HOW);                                                           \
    static constexpr SassCount Sass[] = SASS;                                            \
    __device__ void step() { asm volatile(PTX : "+l"(P) : "l"(Scratch) : "memory"); }     \
  }
#define ONE(A) {{A, 1}}
#define TWO(A, B) {{A, 1}, {B, 1}}
GLOBAL_CHASE(LdGlobalL1, "ld.global.l1", "", "ld.global.u64 %0, [%0];", ONE("LDG\\.E\\.64"),
             "ld.global.u64 chase, 8 KiB ring (L1 hit)");
GLOBAL_CHASE(LdGlobalNc, "ld.global.nc", "", "ld.global.nc.u64 %0, [%0];",
             ONE("LDG\\.E\\.64\\.CONSTANT"), "ld.global.nc.u64 chase, 8 KiB ring (read-only path hit)");
GLOBAL_CHASE(LdGeneric, "ld.generic", "", "ld.u64 %0, [%0];", ONE("LD\\.E\\.64"),
             "generic ld.u64 chase to global memory, 8 KiB ring (L1 hit)");
GLOBAL_CHASE(LdGlobalL2, "ld.global.l2", "", "ld.global.cg.u64 %0, [%0];",
             ONE("LDG\\.E\\.64\\.STRONG\\.GPU|LDG\\.E\\.EF\\.64|LDG\\.E\\.64"),
             "ld.global.cg.u64 chase, 4 MiB ring warmed into L2");
GLOBAL_CHASE(StGlobal, "st.global", "ld.global.l1",
             "st.global.u64 [%1], %0;\n\tld.global.u64 %0, [%0];", TWO("STG\\.E\\.64", "LDG\\.E\\.64"),
             "st.global.u64 of the pointer, then the L1 chase");
GLOBAL_CHASE(StGeneric, "st.generic", "ld.generic", "st.u64 [%1], %0;\n\tld.u64 %0, [%0];",
             TWO("ST\\.E\\.64", "LD\\.E\\.64"), "generic st.u64 of the pointer, then the L1 chase");
// The DRAM chase goes on where the last launch stopped: no line twice.
struct LdGlobalDram : Chase {
  OP(LdGlobalDram, "ld.global.dram", "", "ld.global.u64 chase, 4x L2 ring, random order, L2 flushed");
  static constexpr bool Continues = true;
  static constexpr SassCount Sass[] = ONE("LDG\\.E\\.64");
  __device__ void step() { asm volatile("ld.global.u64 %0, [%0];" : "+l"(P)::"memory"); }
};
#undef GLOBAL_CHASE

// Shared memory: a ring of 32-bit shared-window addresses.
struct SharedChase : Loads {
  unsigned P, Scratch;
  static constexpr bool Continues = false;
  __device__ void init(const latency::ChainArgs &) {
    __shared__ unsigned Ring[65]; // the last word is the stores' target
    unsigned Base;
    asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(Base) : "l"(Ring));
    for (int I = threadIdx.x; I < 64; I += 32)
      Ring[I] = Base + 4 * ((I + 1) % 64);
    __syncwarp();
    P = Base;
    Scratch = Base + 4 * 64;
  }
  __device__ void publish(void *Sink) const { store(Sink, 0, P); }
};
struct LdShared : SharedChase {
  OP(LdShared, "ld.shared", "", "ld.shared.u32 chase");
  static constexpr SassCount Sass[] = ONE("LDS");
  __device__ void step() { asm volatile("ld.shared.u32 %0, [%0];" : "+r"(P)::"memory"); }
};
struct StShared : SharedChase {
  OP(StShared, "st.shared", "ld.shared", "st.shared.u32 of the pointer, then the chase");
  static constexpr SassCount Sass[] = TWO("STS", "LDS");
  __device__ void step() {
    asm volatile("st.shared.u32 [%1], %0;\n\tld.shared.u32 %0, [%0];" : "+r"(P) : "r"(Scratch) : "memory");
  }
};

// Local memory: a ring declared in PTX, so LLVM cannot promote it to
// registers and the chain's own registers stay registers.
struct LocalChase : Loads {
  unsigned P, Scratch;
  static constexpr bool Continues = false;
  __device__ void init(const latency::ChainArgs &) {
    unsigned Base;
    asm volatile(".local .align 8 .b32 latency_ring[65];\n\tmov.u32 %0, latency_ring;" : "=r"(Base));
    for (int I = 0; I < 64; ++I)
      asm volatile("st.local.u32 [%0], %1;" ::"r"(Base + 4 * I), "r"(Base + 4 * ((I + 1) % 64))
                   : "memory");
    P = Base;
    Scratch = Base + 4 * 64;
  }
  __device__ void publish(void *Sink) const { store(Sink, 0, P); }
};
struct LdLocal : LocalChase {
  OP(LdLocal, "ld.local", "", "ld.local.u32 chase (L1 hit)");
  static constexpr SassCount Sass[] = ONE("LDL");
  __device__ void step() { asm volatile("ld.local.u32 %0, [%0];" : "+r"(P)::"memory"); }
};
struct StLocal : LocalChase {
  OP(StLocal, "st.local", "ld.local", "st.local.u32 of the pointer, then the chase");
  static constexpr SassCount Sass[] = TWO("STL", "LDL");
  __device__ void step() {
    asm volatile("st.local.u32 [%1], %0;\n\tld.local.u32 %0, [%0];" : "+r"(P) : "r"(Scratch) : "memory");
  }
};

// Constant memory: a ring of constant-bank addresses (the host learns the
// ring's own address from constRingBase) chased with ld.const: LDC R, c[0x3][R].
struct LdConst : Loads {
  OP(LdConst, "ld.const", "", "ld.const.u32 chase (constant cache hit)");
  static constexpr SassCount Sass[] = ONE("LDC R\\d+, c\\[0x3\\]\\[R\\d+\\]");
  unsigned P;
  static constexpr bool Continues = false;
  __device__ void init(const latency::ChainArgs &A) { P = unsigned(A.A); }
  __device__ void step() { asm volatile("ld.const.u32 %0, [%0];" : "+r"(P)); }
  __device__ void publish(void *Sink) const { store(Sink, 0, P); }
};
#undef ONE
#undef TWO
#undef OP
} // namespace ops

namespace latency {
namespace {

// Slot I of the ring at Base holds the address of the slot after it: the
// next one, or with Scatter a full-period LCG's next (Slots a power of two),
// which visits every slot once in an order no prefetcher follows.
__global__ void fillRing(char *Base, size_t Slots, size_t Stride, bool Scatter) {
  for (size_t I = blockIdx.x * size_t(blockDim.x) + threadIdx.x; I < Slots;
       I += size_t(gridDim.x) * blockDim.x) {
    size_t Next = Scatter ? (I * 1664525 + 1013904223) & (Slots - 1) : (I + 1) % Slots;
    *reinterpret_cast<char **>(Base + I * Stride) = Base + Next * Stride;
  }
}

// Reads every slot once, so the ring is in L2 (or writes, to push it out).
__global__ void sweepRing(char *Base, size_t Slots, size_t Stride, bool Write, char *Sink) {
  char Sum = 0;
  for (size_t I = blockIdx.x * size_t(blockDim.x) + threadIdx.x; I < Slots;
       I += size_t(gridDim.x) * blockDim.x) {
    if (Write)
      Base[I * Stride] = char(I);
    else
      Sum += Base[I * Stride];
  }
  if (Sum == 42)
    *Sink = Sum; // keeps the reads
}

struct Ring {
  char *Base = nullptr;
  size_t Slots = 0;
  Ring(size_t Slots, size_t Stride, bool Scatter) : Slots(Slots) {
    CHECK(cudaMalloc(&Base, Slots * Stride + 128));
    fillRing<<<1024, 256>>>(Base, Slots, Stride, Scatter);
    CHECK(cudaGetLastError());
  }
  ~Ring() { cudaFree(Base); }
};

void sweep(char *Base, size_t Slots, size_t Stride, bool Write) {
  sweepRing<<<1024, 256>>>(Base, Slots, Stride, Write, Base);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
}

size_t powerOfTwoAtLeast(size_t N) {
  size_t P = 1;
  while (P < N)
    P *= 2;
  return P;
}

using namespace ops;

template <class Op> void chaseIn(Context &C, Results &R, void *Base) {
  ChainArgs A;
  A.Buffer = Base;
  measureChain<Op>(C, R, "memory", A);
}

} // namespace

void runMemory(Context &C, Results &R) {
  constexpr size_t Line = 128;
  {
    Ring L1(64, Line, false);
    chaseIn<LdGlobalL1>(C, R, L1.Base);
    chaseIn<LdGlobalNc>(C, R, L1.Base);
    chaseIn<LdGeneric>(C, R, L1.Base);
    chaseIn<StGlobal>(C, R, L1.Base);
    chaseIn<StGeneric>(C, R, L1.Base);
  }
  {
    Ring L2((4u << 20) / Line, Line, true);
    sweep(L2.Base, L2.Slots, Line, false);
    chaseIn<LdGlobalL2>(C, R, L2.Base);
  }
  {
    size_t L2Bytes = size_t(C.Prop.l2CacheSize);
    Ring Dram(powerOfTwoAtLeast(4 * L2Bytes / Line), Line, true);
    Ring Flush(2 * L2Bytes / Line, Line, false);
    sweep(Flush.Base, Flush.Slots, Line, true);
    chaseIn<LdGlobalDram>(C, R, Dram.Base);
  }
  {
    unsigned *Device, Base, Ring[64];
    CHECK(cudaMalloc(&Device, sizeof(unsigned)));
    constRingBase<<<1, 1>>>(Device);
    CHECK(cudaMemcpy(&Base, Device, sizeof Base, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(Device));
    for (unsigned I = 0; I < 64; ++I)
      Ring[I] = Base + 4 * ((I + 1) % 64);
    CHECK(cudaMemcpyToSymbol(LatencyConstRing, Ring, sizeof Ring));
    ChainArgs A;
    A.A = Base;
    measureChain<LdConst>(C, R, "memory", A);
  }
  measureChain<LdShared>(C, R, "memory");
  measureChain<StShared>(C, R, "memory");
  measureChain<LdLocal>(C, R, "memory");
  measureChain<StLocal>(C, R, "memory");
  if (const Entry *L1 = R.find("ld.global.l1")) {
    Entry Alias = *L1;
    Alias.Key = "ld.global";
    Alias.How = "ld.global.l1: an L1 hit (docs/latency.md says why)";
    R.Entries.push_back(Alias);
  }
}

void describeMemory(std::vector<SassExpectation> &Out) {
  describeChain<LdGlobalL1>(Out);
  describeChain<LdGlobalNc>(Out);
  describeChain<LdGeneric>(Out);
  describeChain<StGlobal>(Out);
  describeChain<StGeneric>(Out);
  describeChain<LdGlobalL2>(Out);
  describeChain<LdGlobalDram>(Out);
  describeChain<LdConst>(Out);
  describeChain<LdShared>(Out);
  describeChain<StShared>(Out);
  describeChain<LdLocal>(Out);
  describeChain<StLocal>(Out);
}

} // namespace latency
