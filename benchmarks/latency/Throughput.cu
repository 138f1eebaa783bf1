// Issue throughput per pipe: how many warp instructions of one kind an SM
// completes per cycle when it is full, for the model's SM-shared estimate
// (docs/model.md), which lets the resident warps share each pipe.
//
// One block of 1024 threads (32 warps) per SM; every thread runs Chains
// independent dependent chains of the operation, so 256 instructions are in
// flight per step and the pipe, not the chains' latency, sets the pace (a
// 30-cycle latency at 4 instructions a cycle needs 120). Thread 0 reads the
// clock after a barrier on each side; two lengths are timed as the latency
// chains are (Chain.cuh), and the slope per step, over the 32 x Chains warp
// instructions a step issues, is the entry: cycles per warp instruction per
// SM (0.25 where an SM completes 4 a cycle). Keys are "issue.<pipe>"; a
// latency-table reader never prices a mix key by them (no mix key's family
// is "issue").
//
// Operations ptxas expands into a sequence (division, remainder, IEEE
// square root) are timed the same way: their entry, "issue.<key>", is how
// many issue slots the model counts for one key of a mix.
//
// Global loads count sectors: a warp load whose 32 lanes read 32 different
// lines moves 32 sectors where a coalesced 4-byte one moves 4. Timed from
// L1 on one SM, and from L2 and from DRAM with every SM loading (their
// share of L2's and of DRAM's bandwidth).
#include "Chain.cuh"
#include "Device.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

namespace {
constexpr int Chains = 8;
constexpr int Warps = 32, Threads = Warps * 32;
constexpr int Short = 16, Long = 80;
// Global loads: each lane visits Lines places in turn (Lines lines in all
// when coalesced, Lines x 32 when scattered: 128 KiB, which the L1 holds;
// the L2 runs bypass it).
constexpr int Lines = 32;
} // namespace

// Their own namespace: Instructions.cu's ops::FmaF32 is another class.
namespace pipes {
using latency::SassCount;

// What the streams read: the ring of the global loads, and a seed the
// kernel cannot see (never 0), so nothing folds and every store stays.
struct IssueArgs {
  const unsigned *Ring = nullptr; // global loads: the ring of word offsets
  unsigned Seed = 1;
  unsigned RingLines = 0; // the DRAM ring's 128-byte lines
};

#define ISSUE(NAME, KEY, HOW)                                                            \
  static constexpr const char *Key = KEY, *Name = #NAME, *How = HOW

struct FmaF32 {
  ISSUE(FmaF32, "issue.fp32", "fmaf(p, q, q), 8 chains a thread");
  static constexpr SassCount Sass[] = {{"FFMA", 1}};
  float P, Q;
  __device__ void init(const IssueArgs &A, int C) {
    P = 1.0f + 1e-3f * (threadIdx.x % 32 + C);
    Q = 0.999f;
  }
  __device__ void step() { asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(P) : "f"(Q)); }
  __device__ unsigned bits() const { return __float_as_uint(P); }
};
struct FmaF64 {
  ISSUE(FmaF64, "issue.fp64", "fma(p, q, q), 8 chains a thread");
  static constexpr SassCount Sass[] = {{"DFMA", 1}};
  double P, Q;
  __device__ void init(const IssueArgs &A, int C) {
    P = 1.0 + 1e-3 * (threadIdx.x % 32 + C);
    Q = 0.999;
  }
  __device__ void step() { asm volatile("fma.rn.f64 %0, %0, %1, %1;" : "+d"(P) : "d"(Q)); }
  __device__ unsigned bits() const { return unsigned(__double_as_longlong(P)); }
};
struct MadS32 {
  ISSUE(MadS32, "issue.imad", "mad.lo.s32 p*q+q, 8 chains a thread");
  static constexpr SassCount Sass[] = {{"IMAD", 1}};
  int P, Q;
  __device__ void init(const IssueArgs &A, int C) {
    P = int(A.Seed + threadIdx.x + C);
    Q = 1000000007;
  }
  __device__ void step() { asm volatile("mad.lo.s32 %0, %0, %1, %1;" : "+r"(P) : "r"(Q)); }
  __device__ unsigned bits() const { return unsigned(P); }
};
// The integer ALU pipe (adds, logic, shifts, compares, min and max). A
// shift by an amount ptxas cannot see: two adds or two bitwise steps it
// would merge into one IADD3 or LOP3, two shifts by q it cannot (a shift by
// 2q differs once q reaches 16).
struct ShlB32 {
  ISSUE(ShlB32, "issue.alu", "shl.b32 by a run-time amount, 8 chains a thread");
  static constexpr SassCount Sass[] = {{"SHF\\.L\\.U32", 1}};
  unsigned P, Q;
  __device__ void init(const IssueArgs &A, int C) {
    P = A.Seed + threadIdx.x + C;
    Q = A.Seed;
  }
  __device__ void step() { asm volatile("shl.b32 %0, %0, %1;" : "+r"(P) : "r"(Q)); }
  __device__ unsigned bits() const { return P; }
};
struct Ex2F32 {
  ISSUE(Ex2F32, "issue.mufu", "ex2.approx.ftz.f32, 8 chains a thread");
  static constexpr SassCount Sass[] = {{"MUFU\\.EX2", 1}};
  float P;
  __device__ void init(const IssueArgs &A, int C) { P = -1.0f - 1e-3f * (threadIdx.x % 32 + C); }
  __device__ void step() { asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(P)); }
  __device__ unsigned bits() const { return __float_as_uint(P); }
};
// The load/store unit: a shared-memory chase per chain, each lane in its own bank: no conflicts.
struct LdShared {
  ISSUE(LdShared, "issue.lsu", "ld.shared.u32 chase, lane in its own bank, 8 chains a thread");
  static constexpr SassCount Sass[] = {{"LDS", 1}};
  static constexpr int Slots = 16;
  unsigned P;
  __device__ void init(const IssueArgs &, int C) {
    __shared__ unsigned Ring[Slots * 32];
    unsigned Base;
    asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(Base) : "l"(Ring));
    for (int I = threadIdx.x; I < Slots * 32; I += blockDim.x)
      Ring[I] = Base + 4 * ((I + 32) % (Slots * 32));
    __syncthreads();
    P = Base + 4 * ((C % Slots) * 32 + threadIdx.x % 32);
  }
  __device__ void step() { asm volatile("ld.shared.u32 %0, [%0];" : "+r"(P)::"memory"); }
  __device__ unsigned bits() const { return P; }
};
// Global loads through a ring of word offsets: the next offset is the word
// read. Coalesced: a warp's lanes read one 128-byte line (4 sectors).
// Scattered: each lane reads its own line (32 sectors). The offset's add
// into an address is an ALU instruction, far from the loads' limit.
template <bool Scattered, bool L2Only> struct LdGlobal {
  static constexpr SassCount Sass[] = {{"LDG\\.E.*", 1}};
  unsigned P;
  const unsigned *Ring;
  __device__ void init(const IssueArgs &A, int C) {
    Ring = A.Ring;
    unsigned Lane = threadIdx.x % 32;
    unsigned Line = (C * 8 + threadIdx.x / 32) % Lines;
    P = Scattered ? (Line * 32 + Lane) * 32 : Line * 32 + Lane;
  }
  __device__ void step() {
    if constexpr (L2Only)
      asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(P) : "l"(Ring + P) : "memory");
    else
      asm volatile("ld.global.u32 %0, [%1];" : "=r"(P) : "l"(Ring + P) : "memory");
  }
  __device__ unsigned bits() const { return P; }
};
struct LdGlobalL1 : LdGlobal<false, false> {
  ISSUE(LdGlobalL1, "issue.ldg", "ld.global.u32, a warp reads one line (4 sectors), L1 hits");
};
struct LdGlobalL1Scattered : LdGlobal<true, false> {
  ISSUE(LdGlobalL1Scattered, "issue.ldg.scattered",
        "ld.global.u32, every lane its own line (32 sectors), L1 hits");
};
struct LdGlobalL2Scattered : LdGlobal<true, true> {
  ISSUE(LdGlobalL2Scattered, "issue.ldg.l2.scattered",
        "ld.global.cg.u32, every lane its own line (32 sectors), L2 hits, every SM loading");
};
// From DRAM: every lane chases its own place in one random cycle through
// the lines of a ring 16 times the L2, so nearly every load misses L2 (a
// line is back in L2 for about one load in 16) and its sector comes from
// DRAM, as the lines of a regrouped launch's scattered threads do once the
// launch's data outgrows L2.
struct LdGlobalDramScattered {
  ISSUE(LdGlobalDramScattered, "issue.ldg.dram.scattered",
        "ld.global.cg.u32, every lane its own place in a random cycle through a ring 16x the L2 "
        "(32 sectors, L2 misses), every SM loading");
  static constexpr SassCount Sass[] = {{"LDG\\.E.*", 1}};
  unsigned P;
  const unsigned *Ring;
  __device__ void init(const IssueArgs &A, int C) {
    Ring = A.Ring;
    unsigned Id = (blockIdx.x * blockDim.x + threadIdx.x) * Chains + C;
    Id = (Id ^ (Id >> 16)) * 0x7feb352du; // spread neighbouring chains over the ring
    P = (Id % A.RingLines) * 32;
  }
  __device__ void step() {
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(P) : "l"(Ring + P) : "memory");
  }
  __device__ unsigned bits() const { return P; }
};
// From DRAM in runs: a warp's lanes read the 32 sectors of one KiB, and
// each chain's next load the next KiB of a ring 16 times the L2, every
// chain starting its own stretch of the ring: a regrouped launch's class of
// threads sweeping its arrays. Next to the scattered entry, it splits a
// DRAM sector's price into a part per sector and a part per KiB opened
// (IssuePipes.h).
struct LdGlobalDramRuns {
  ISSUE(LdGlobalDramRuns, "issue.ldg.dram.runs",
        "ld.global.cg.u32, a warp reads the 32 sectors of one KiB, each load the next KiB of a "
        "ring 16x the L2 (L2 misses), every SM loading");
  static constexpr SassCount Sass[] = {{"LDG\\.E.*", 1}};
  unsigned P;
  const unsigned *Ring;
  __device__ void init(const IssueArgs &A, int C) {
    Ring = A.Ring;
    unsigned Chain = (blockIdx.x * blockDim.x + threadIdx.x) / 32 * Chains + C;
    unsigned Stretch = A.RingLines / 8 / (gridDim.x * blockDim.x / 32 * Chains);
    P = (Chain * Stretch % (A.RingLines / 8)) * 256 + threadIdx.x % 32 * 8;
  }
  __device__ void step() {
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(P) : "l"(Ring + P) : "memory");
  }
  __device__ unsigned bits() const { return P; }
};
// Operations ptxas expands into a sequence (division, remainder, IEEE
// square root): a key of the mix that issues many instructions, whose cost
// in issue slots the model reads here ("issue.<key>"), since its latency
// says nothing of how many slots it takes from the other warps. p = q op p,
// so no reciprocal leaves the chain; each step has one reciprocal or root
// estimate (MUFU), the slow paths are subroutines outside the timed code.
template <class T> struct Sequence {
  T P, Q;
  __device__ void init(const IssueArgs &A, int C) {
    P = T(A.Seed + 3 + threadIdx.x % 32 + C);
    Q = T(1000000007u);
  }
  __device__ unsigned bits() const {
    if constexpr (sizeof(T) == 8)
      return unsigned(__double_as_longlong(double(P)));
    else if constexpr (std::is_floating_point_v<T>)
      return __float_as_uint(P);
    else
      return unsigned(P);
  }
};
#define SEQUENCE(NAME, KEY, T, MUFU, ASM, CONSTRAINT)                                    \
  struct NAME : Sequence<T> {                                                           \
    ISSUE(NAME, "issue." KEY, KEY " p = q op p (ptxas's sequence), 8 chains a thread"); \
    static constexpr SassCount Sass[] = {{MUFU, 1}};                                    \
    __device__ void step() {                                                            \
      asm volatile(ASM " %0, %1, %0;" : "+" CONSTRAINT(P) : CONSTRAINT(Q));             \
    }                                                                                   \
  }
SEQUENCE(DivU32, "div.u32", unsigned, "MUFU\\.RCP", "div.u32", "r");
SEQUENCE(DivS32, "div.s32", int, "MUFU\\.RCP", "div.s32", "r");
SEQUENCE(RemU32, "rem.u32", unsigned, "MUFU\\.RCP", "rem.u32", "r");
SEQUENCE(RemS32, "rem.s32", int, "MUFU\\.RCP", "rem.s32", "r");
SEQUENCE(DivF32, "div.f32", float, "MUFU\\.RCP", "div.rn.f32", "f");
SEQUENCE(DivF64, "div.f64", double, "MUFU\\.RCP64H", "div.rn.f64", "d");
#undef SEQUENCE
// sqrt.rn's operand is the chain itself: p = sqrt(p), kept away from 1 by
// a starting value the chain needs 80 roots to bring there.
template <class T> struct Root : Sequence<T> {
  __device__ void init(const IssueArgs &A, int C) {
    this->P = T(1e30) * T(1 + threadIdx.x % 32 + C);
  }
};
struct SqrtF32 : Root<float> {
  ISSUE(SqrtF32, "issue.sqrt.f32", "sqrt.f32 p = sqrt(p) (IEEE, ptxas's sequence), 8 chains a thread");
  static constexpr SassCount Sass[] = {{"MUFU\\.RSQ", 1}};
  __device__ void step() { asm volatile("sqrt.rn.f32 %0, %0;" : "+f"(P)); }
};
struct SqrtF64 : Root<double> {
  ISSUE(SqrtF64, "issue.sqrt.f64", "sqrt.f64 p = sqrt(p) (IEEE, ptxas's sequence), 8 chains a thread");
  static constexpr SassCount Sass[] = {{"MUFU\\.RSQ64H", 1}};
  __device__ void step() { asm volatile("sqrt.rn.f64 %0, %0;" : "+d"(P)); }
};
#undef ISSUE

} // namespace pipes

// L steps of Chains chains between the clock reads; thread 0 keeps the
// block's time. The chains' values leave through a store no thread makes
// (Seed is never 0), so nothing is dead.
template <class Op, int L>
__global__ void __launch_bounds__(Threads) issueStream(pipes::IssueArgs A, long long *Cycles,
                                                       unsigned *Sink) {
  Op Chain[Chains];
#pragma unroll
  for (int C = 0; C < Chains; ++C)
    Chain[C].init(A, C);
#pragma unroll 1
  for (int R = 0; R < latency::ChainReps; ++R) {
    __syncthreads();
    long long T0 = clock64();
#pragma unroll
    for (int I = 0; I < L; ++I)
#pragma unroll
      for (int C = 0; C < Chains; ++C)
        Chain[C].step();
    __syncthreads();
    long long T1 = clock64();
    if (threadIdx.x == 0)
      Cycles[blockIdx.x * latency::ChainReps + R] = T1 - T0;
  }
  unsigned All = 0;
#pragma unroll
  for (int C = 0; C < Chains; ++C)
    All ^= Chain[C].bits();
  if (A.Seed == 0)
    Sink[threadIdx.x] = All;
}

namespace latency {
namespace {

template <class Op, int L> std::string streamKernelName() {
  return std::string("issueStream<pipes::") + Op::Name + ", " + std::to_string(L) + ">";
}

template <class Op> void describeStream(std::vector<SassExpectation> &Out) {
  for (const SassCount &S : Op::Sass) {
    Out.push_back({streamKernelName<Op, Short>(), S.Opcode, S.PerStep * Short * Chains, Op::Key});
    Out.push_back({streamKernelName<Op, Long>(), S.Opcode, S.PerStep * Long * Chains, Op::Key});
  }
}

// Cycles per warp instruction per SM: each block's slope over the two
// lengths, every repetition but the first, divided by what a step issues.
template <class Op> void measureStream(Context &C, Results &Out, int Blocks, const pipes::IssueArgs &A) {
  C.Report->step(Op::Key);
  long long *Cycles;
  unsigned *Sink;
  size_t PerLaunch = size_t(Blocks) * ChainReps;
  CHECK(cudaMalloc(&Cycles, 2 * PerLaunch * sizeof(long long)));
  CHECK(cudaMalloc(&Sink, Threads * sizeof(unsigned)));
  std::vector<double> Samples;
  std::vector<long long> H(2 * PerLaunch);
  for (int Launch = 0; Launch < C.Repeat; ++Launch) {
    issueStream<Op, Short><<<Blocks, Threads>>>(A, Cycles, Sink);
    issueStream<Op, Long><<<Blocks, Threads>>>(A, Cycles + PerLaunch, Sink);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(H.data(), Cycles, H.size() * sizeof(long long), cudaMemcpyDeviceToHost));
    for (int B = 0; B < Blocks; ++B)
      for (int R = 1; R < ChainReps; ++R) {
        size_t At = size_t(B) * ChainReps + R;
        double PerStep = double(H[PerLaunch + At] - H[At]) / (Long - Short);
        Samples.push_back(PerStep / (Warps * Chains));
      }
  }
  CHECK(cudaFree(Cycles));
  CHECK(cudaFree(Sink));
  Summary S = summarize(Samples);
  Out.Entries.push_back({Op::Key, "throughput", S.Median, S.Spread, S.Samples, Op::How});
}

template <class... Ops> struct List {};
using Compute = List<pipes::FmaF32, pipes::FmaF64, pipes::MadS32, pipes::ShlB32, pipes::Ex2F32,
                     pipes::LdShared>;
using Loads = List<pipes::LdGlobalL1, pipes::LdGlobalL1Scattered, pipes::LdGlobalL2Scattered,
                   pipes::LdGlobalDramScattered, pipes::LdGlobalDramRuns>;
using Sequences = List<pipes::DivU32, pipes::DivS32, pipes::RemU32, pipes::RemS32, pipes::DivF32,
                       pipes::DivF64, pipes::SqrtF32, pipes::SqrtF64>;

template <class... Ops> void runAll(List<Ops...>, Context &C, Results &R, int Blocks,
                                    const pipes::IssueArgs &A) {
  (measureStream<Ops>(C, R, Blocks, A), ...);
}
template <class... Ops> void describeAll(List<Ops...>, std::vector<SassExpectation> &Out) {
  (describeStream<Ops>(Out), ...);
}

} // namespace

void runThroughput(Context &C, Results &R) {
  // Two rings of word offsets, each word the offset of the lane's next one.
  // Coalesced: word Line * 32 + Lane. Scattered: the first word of line
  // Line * 32 + Lane.
  std::vector<unsigned> Coalesced(size_t(Lines) * 32), Scattered(size_t(Lines) * 32 * 32);
  for (unsigned Line = 0; Line < Lines; ++Line)
    for (unsigned Lane = 0; Lane < 32; ++Lane) {
      unsigned Next = (Line + 1) % Lines;
      Coalesced[Line * 32 + Lane] = Next * 32 + Lane;
      Scattered[(Line * 32 + Lane) * 32] = (Next * 32 + Lane) * 32;
    }
  auto upload = [](const std::vector<unsigned> &V) {
    unsigned *D;
    CHECK(cudaMalloc(&D, V.size() * sizeof(unsigned)));
    CHECK(cudaMemcpy(D, V.data(), V.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
    return D;
  };
  unsigned *DCoalesced = upload(Coalesced), *DScattered = upload(Scattered);
  runAll(Compute{}, C, R, 1, {nullptr, 1});
  runAll(Sequences{}, C, R, 1, {nullptr, 1});
  measureStream<pipes::LdGlobalL1>(C, R, 1, {DCoalesced, 1});
  measureStream<pipes::LdGlobalL1Scattered>(C, R, 1, {DScattered, 1});
  measureStream<pipes::LdGlobalL2Scattered>(C, R, C.Prop.multiProcessorCount, {DScattered, 1});
  CHECK(cudaFree(DCoalesced));
  CHECK(cudaFree(DScattered));

  // The DRAM ring: the lines in a random order, the first word of each the
  // word offset of the next: one cycle through all of them, so no chain
  // closes early on a few lines.
  unsigned RingLines = unsigned(16 * size_t(C.Prop.l2CacheSize) / 128);
  std::vector<unsigned> Order(RingLines);
  std::iota(Order.begin(), Order.end(), 0u);
  std::shuffle(Order.begin(), Order.end(), std::mt19937(12345));
  std::vector<unsigned> Dram(size_t(RingLines) * 32);
  for (unsigned I = 0; I < RingLines; ++I)
    Dram[size_t(Order[I]) * 32] = Order[(I + 1) % RingLines] * 32;
  unsigned *DDram = upload(Dram);
  measureStream<pipes::LdGlobalDramScattered>(C, R, C.Prop.multiProcessorCount,
                                              {DDram, 1, RingLines});
  CHECK(cudaFree(DDram));

  // The runs' ring: KiB after KiB (256 words), each lane's word the offset
  // of its word in the next KiB.
  std::vector<unsigned> Runs(size_t(RingLines) * 32);
  unsigned Kibs = RingLines / 8;
  for (unsigned K = 0; K < Kibs; ++K)
    for (unsigned Lane = 0; Lane < 32; ++Lane)
      Runs[size_t(K) * 256 + Lane * 8] = (K + 1) % Kibs * 256 + Lane * 8;
  unsigned *DRuns = upload(Runs);
  measureStream<pipes::LdGlobalDramRuns>(C, R, C.Prop.multiProcessorCount, {DRuns, 1, RingLines});
  CHECK(cudaFree(DRuns));
}

void describeThroughput(std::vector<SassExpectation> &Out) {
  describeAll(Compute{}, Out);
  describeAll(Loads{}, Out);
  describeAll(Sequences{}, Out);
}

} // namespace latency
