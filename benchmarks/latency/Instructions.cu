// Instruction latencies (seed 002 Table III's rows and more), each a
// dependent chain (Chain.cuh). Integer operations are written as inline PTX
// because LLVM would otherwise fold a chain of them into a multiply; ptxas
// still folds what it can, so each chain is built so that it cannot:
// Fibonacci pairs, divisors that change every step, or a companion
// instruction of known latency between the steps of an idempotent operation
// (min, and, abs). Floating-point chains are plain C++: without fast-math
// nothing reassociates them, and they compile as user code does.
#include "Chain.cuh"

#include <cuda_fp16.h>

#include <type_traits>

namespace ops {
using latency::SassCount;

#define OP(NAME, KEY, MINUS, HOW)                                                        \
  static constexpr const char *Key = KEY, *Name = #NAME, *Minus = MINUS, *How = HOW

// ---- 32-bit integers: Fibonacci pairs -------------------------------------
struct AddS32 : Pair<int>, Cheap {
  OP(AddS32, "add.s32", "", "add.s32, Fibonacci pair");
  static constexpr SassCount Sass[] = {{"IADD3|IMAD\\.IADD", 1}};
  __device__ void step() { asm volatile("add.s32 %0, %0, %1;" : "+r"(P) : "r"(Q)); swap(); }
};
struct SubS32 : Pair<int>, Cheap {
  OP(SubS32, "sub.s32", "", "sub.s32, Fibonacci pair");
  static constexpr SassCount Sass[] = {{"IADD3|IMAD\\.IADD", 1}};
  __device__ void step() { asm volatile("sub.s32 %0, %0, %1;" : "+r"(P) : "r"(Q)); swap(); }
};
struct MulS32 : Pair<int>, Cheap {
  OP(MulS32, "mul.s32", "", "mul.lo.s32, Fibonacci pair");
  static constexpr SassCount Sass[] = {{"IMAD", 1}};
  __device__ void step() { asm volatile("mul.lo.s32 %0, %0, %1;" : "+r"(P) : "r"(Q)); swap(); }
};
struct MadS32 : Pair<int>, Cheap {
  OP(MadS32, "mad.s32", "", "mad.lo.s32 p*q+q, Fibonacci pair");
  static constexpr SassCount Sass[] = {{"IMAD", 1}};
  __device__ void step() { asm volatile("mad.lo.s32 %0, %0, %1, %1;" : "+r"(P) : "r"(Q)); swap(); }
};
struct Mul24S32 : Pair<int>, Cheap {
  OP(Mul24S32, "mul24.s32", "", "mul24.lo.s32 (__mul24: SGXT + IMAD on sm_90), Fibonacci pair");
  static constexpr SassCount Sass[] = {{"IMAD", 1}};
  __device__ void step() { asm volatile("mul24.lo.s32 %0, %0, %1;" : "+r"(P) : "r"(Q)); swap(); }
};
struct Mul24U32 : Pair<unsigned>, Cheap {
  OP(Mul24U32, "mul24.u32", "", "mul24.lo.u32 (__umul24: masking + IMAD on sm_90), Fibonacci pair");
  static constexpr SassCount Sass[] = {{"IMAD", 1}};
  __device__ void step() { asm volatile("mul24.lo.u32 %0, %0, %1;" : "+r"(P) : "r"(Q)); swap(); }
};
struct ShlB32 : Pair<int>, Cheap {
  OP(ShlB32, "shl.b32", "", "shl.b32 by a run-time amount");
  static constexpr SassCount Sass[] = {{"SHF\\.L\\.U32", 1}};
  __device__ void step() { asm volatile("shl.b32 %0, %0, %1;" : "+r"(P) : "r"(Q)); }
};
struct ShrU32 : Pair<int>, Cheap {
  OP(ShrU32, "shr.u32", "", "shr.u32 by a run-time amount");
  static constexpr SassCount Sass[] = {{"SHF\\.R\\.U32\\.HI", 1}};
  __device__ void step() { asm volatile("shr.u32 %0, %0, %1;" : "+r"(P) : "r"(Q)); }
};
struct ShrS32 : Pair<int>, Cheap {
  OP(ShrS32, "shr.s32", "", "shr.s32 by a run-time amount");
  static constexpr SassCount Sass[] = {{"SHF\\.R\\.S32\\.HI", 1}};
  __device__ void step() { asm volatile("shr.s32 %0, %0, %1;" : "+r"(P) : "r"(Q)); }
};

// ---- 64-bit integers ------------------------------------------------------
struct AddS64 : Pair<long long>, Cheap {
  OP(AddS64, "add.s64", "", "add.s64, Fibonacci pair");
  static constexpr SassCount Sass[] = {{"IADD3", 1}, {"IADD3\\.X|IMAD\\.X", 1}};
  __device__ void step() { asm volatile("add.s64 %0, %0, %1;" : "+l"(P) : "l"(Q)); swap(); }
};
// Address arithmetic (a getelementptr with a variable index): the index is
// the chain's own low word, so each step waits for the previous address.
struct MadS64 : Pair<long long>, Cheap {
  OP(MadS64, "mad.s64", "", "mad.wide.s32 p = lo(p)*q + p (address arithmetic)");
  static constexpr SassCount Sass[] = {{"IMAD\\.WIDE", 1}};
  __device__ void step() {
    asm volatile("{ .reg .s32 lo; cvt.u32.u64 lo, %0; mad.wide.s32 %0, lo, %1, %0; }"
                 : "+l"(P)
                 : "r"(int(Q)));
  }
};

// ---- division and remainder: the divisor changes every step ---------------
// p = q / p: ptxas cannot hoist the divisor's reciprocal out of the chain.
struct DivS32 : Pair<int>, Costly {
  OP(DivS32, "div.s32", "", "div.s32 p = q / p (ptxas's sequence)");
  static constexpr SassCount Sass[] = {{"MUFU\\.RCP", 1}};
  __device__ void step() { asm volatile("div.s32 %0, %1, %0;" : "+r"(P) : "r"(Q)); }
};
struct DivU32 : Pair<unsigned>, Costly {
  OP(DivU32, "div.u32", "", "div.u32 p = q / p (ptxas's sequence)");
  static constexpr SassCount Sass[] = {{"MUFU\\.RCP", 1}};
  __device__ void step() { asm volatile("div.u32 %0, %1, %0;" : "+r"(P) : "r"(Q)); }
};
struct RemS32 : Pair<int>, Costly {
  OP(RemS32, "rem.s32", "", "rem.s32 p = q % p (ptxas's sequence)");
  static constexpr SassCount Sass[] = {{"MUFU\\.RCP", 1}};
  __device__ void step() { asm volatile("rem.s32 %0, %1, %0;" : "+r"(P) : "r"(Q)); }
};
struct RemU32 : Pair<unsigned>, Costly {
  OP(RemU32, "rem.u32", "", "rem.u32 p = q % p (ptxas's sequence)");
  static constexpr SassCount Sass[] = {{"MUFU\\.RCP", 1}};
  __device__ void step() { asm volatile("rem.u32 %0, %1, %0;" : "+r"(P) : "r"(Q)); }
};

// ---- idempotent or mergeable operations, with a companion -----------------
// x & q & q == x & q, and ptxas merges any two bitwise steps into one LOP3:
// each step adds q afterwards, and add.s32's latency is subtracted.
#define WITH_ADD(NAME, KEY, PTX, SASS)                                                   \
  struct NAME : Pair<int>, Cheap {                                                       \
    OP(NAME, KEY, "add.s32", PTX " then add.s32");                                      \
    static constexpr SassCount Sass[] = {{SASS, 1}, {"IADD3|IMAD\\.IADD", 1}};           \
    __device__ void step() {                                                             \
      asm volatile(PTX " %0, %0, %1;\n\tadd.s32 %0, %0, %1;" : "+r"(P) : "r"(Q));        \
    }                                                                                    \
  }
WITH_ADD(AndB32, "and.b32", "and.b32", "LOP3\\.LUT");
WITH_ADD(OrB32, "or.b32", "or.b32", "LOP3\\.LUT");
WITH_ADD(XorB32, "xor.b32", "xor.b32", "LOP3\\.LUT");
#undef WITH_ADD
// Hopper fuses an add into a following min or max (VIADDMNMX), so these
// take xor as their companion instead.
#define WITH_XOR(NAME, KEY, PTX)                                                         \
  struct NAME : Pair<int>, Cheap {                                                       \
    OP(NAME, KEY, "xor.b32", PTX " then xor.b32");                                      \
    static constexpr SassCount Sass[] = {{"IMNMX.*|VIMNMX.*", 1}, {"LOP3\\.LUT", 1}};    \
    __device__ void step() {                                                             \
      asm volatile(PTX " %0, %0, %1;\n\txor.b32 %0, %0, %1;" : "+r"(P) : "r"(Q));        \
    }                                                                                    \
  }
WITH_XOR(MinS32, "min.s32", "min.s32");
WITH_XOR(MaxS32, "max.s32", "max.s32");
WITH_XOR(MinU32, "min.u32", "min.u32");
WITH_XOR(MaxU32, "max.u32", "max.u32");
#undef WITH_XOR
struct AbsS32 : Pair<int>, Cheap {
  OP(AbsS32, "abs.s32", "add.s32", "abs.s32 then add.s32");
  static constexpr SassCount Sass[] = {{"IABS", 1}};
  __device__ void step() { asm volatile("abs.s32 %0, %0;\n\tadd.s32 %0, %0, %1;" : "+r"(P) : "r"(Q)); }
};
// selp with a predicate fixed before the chain; setp then decides it from
// the chain (p != a constant: ptxas turns p < q and a select into a min).
struct SelpB32 : Pair<int>, Cheap {
  OP(SelpB32, "selp.b32", "add.s32", "selp.b32 on a fixed predicate then add.s32");
  static constexpr SassCount Sass[] = {{"SEL", 1}};
  __device__ void step() {
    asm volatile("{ .reg .pred c; setp.ne.s32 c, %1, 0; selp.b32 %0, %0, %1, c; add.s32 %0, %0, %1; }"
                 : "+r"(P)
                 : "r"(Q));
  }
};
struct SetpS32 : Pair<int>, Cheap {
  OP(SetpS32, "setp.s32", "selp.b32 add.s32", "setp.ne.s32 on the chain, selp.b32, add.s32");
  static constexpr SassCount Sass[] = {{"ISETP.*", 1}, {"SEL", 1}};
  __device__ void step() {
    asm volatile("{ .reg .pred c; setp.ne.s32 c, %0, 12345; selp.b32 %0, %0, %1, c; add.s32 %0, %0, %1; }"
                 : "+r"(P)
                 : "r"(Q));
  }
};

// ---- 32- and 64-bit floating point: P = P op Q ----------------------------
#define FLOAT_OP(NAME, KEY, T, LEN, SASS, EXPR, HOW)                                     \
  struct NAME : Pair<T>, LEN {                                                           \
    OP(NAME, KEY, "", HOW);                                                              \
    static constexpr SassCount Sass[] = {{SASS, 1}};                                     \
    __device__ void step() { P = EXPR; }                                                 \
  }
FLOAT_OP(AddF32, "add.f32", float, Cheap, "FADD", P + Q, "p + q");
FLOAT_OP(SubF32, "sub.f32", float, Cheap, "FADD", P - Q, "p - q");
FLOAT_OP(MulF32, "mul.f32", float, Cheap, "FMUL", P *Q, "p * q");
FLOAT_OP(FmaF32, "fma.f32", float, Cheap, "FFMA", fmaf(P, Q, Q), "fmaf(p, q, q)");
FLOAT_OP(AddRnF32, "add.rn.f", float, Cheap, "FADD", __fadd_rn(P, Q), "__fadd_rn(p, q)");
FLOAT_OP(MulRnF32, "mul.rn.f", float, Cheap, "FMUL", __fmul_rn(P, Q), "__fmul_rn(p, q)");
FLOAT_OP(AddF64, "add.f64", double, Medium, "DADD", P + Q, "p + q");
FLOAT_OP(SubF64, "sub.f64", double, Medium, "DADD", P - Q, "p - q");
FLOAT_OP(MulF64, "mul.f64", double, Medium, "DMUL", P *Q, "p * q");
FLOAT_OP(FmaF64, "fma.f64", double, Medium, "DFMA", fma(P, Q, Q), "fma(p, q, q)");
FLOAT_OP(AddRnF64, "add.rn.d", double, Medium, "DADD", __dadd_rn(P, Q), "__dadd_rn(p, q)");
// Division and square roots feed the result back as the divisor or argument.
FLOAT_OP(DivF32, "div.f32", float, Costly, "MUFU\\.RCP", Q / P, "q / p (IEEE, ptxas's sequence)");
FLOAT_OP(DivF64, "div.f64", double, Costly, "MUFU\\.RCP64H", Q / P, "q / p (IEEE, ptxas's sequence)");
FLOAT_OP(DivApproxF32, "div.approx.f", float, Medium, "MUFU\\.RCP", __fdividef(Q, P), "__fdividef(q, p)");
FLOAT_OP(SqrtApproxF32, "sqrt.approx.f", float, Medium, "MUFU\\.SQRT", sqrtf(P), "sqrtf(p) as clang compiles it");
FLOAT_OP(SqrtF32, "sqrt.f32", float, Costly, "MUFU\\.RSQ", __fsqrt_rn(P), "__fsqrt_rn(p) (IEEE)");
FLOAT_OP(SqrtF64, "sqrt.f64", double, Costly, "MUFU\\.RSQ64H", sqrt(P), "sqrt(p) (IEEE)");
FLOAT_OP(RsqrtF32, "rsqrt.approx.f", float, Medium, "MUFU\\.RSQ", rsqrtf(P), "rsqrtf(p)");
FLOAT_OP(RcpF32, "rcp.rn.f", float, Medium, "MUFU\\.RCP", __frcp_rn(P), "__frcp_rn(p)");
FLOAT_OP(Ex2F32, "ex2.approx.f32", float, Medium, "MUFU\\.EX2", exp2f(P), "exp2f(p)");
FLOAT_OP(Lg2F32, "lg2.approx.f", float, Medium, "MUFU\\.LG2", __log2f(P), "__log2f(p)");
FLOAT_OP(SinApproxF32, "sin.approx.f", float, Medium, "MUFU\\.SIN", __sinf(P), "__sinf(p)");
FLOAT_OP(CosApproxF32, "cos.approx.f", float, Medium, "MUFU\\.COS", __cosf(P), "__cosf(p)");
#undef FLOAT_OP

// Idempotent float operations take add.f32 as their companion.
#define FLOAT_WITH_ADD(NAME, KEY, T, SASS, EXPR, HOW)                                    \
  struct NAME : Pair<T>, Cheap {                                                         \
    OP(NAME, KEY, (sizeof(T) == 4 ? "add.f32" : "add.f64"), HOW);                        \
    static constexpr SassCount Sass[] = {{SASS, 1}};                                     \
    __device__ void step() { P = EXPR; }                                                 \
  }
FLOAT_WITH_ADD(MinF32, "min.f32", float, "FMNMX", fminf(P, Q) + Q, "fminf(p, q) + q");
FLOAT_WITH_ADD(MaxF32, "max.f32", float, "FMNMX", fmaxf(P, Q) + Q, "fmaxf(p, q) + q");
FLOAT_WITH_ADD(MinF64, "min.f64", double, "DSETP.*|DMNMX.*", fmin(P, Q) + Q, "fmin(p, q) + q");
FLOAT_WITH_ADD(MaxF64, "max.f64", double, "DSETP.*|DMNMX.*", fmax(P, Q) + Q, "fmax(p, q) + q");
FLOAT_WITH_ADD(AbsF32, "fabs.f32", float, "FADD", fabsf(P) + Q, "fabsf(p) + q (a source modifier)");
FLOAT_WITH_ADD(NegF32, "neg.f32", float, "FADD", -P + Q, "-p + q (a source modifier)");
#undef FLOAT_WITH_ADD

// ---- conversions: the result comes back by reinterpreting its bits, and
// one add of the original type closes the step.
#define CVT(NAME, KEY, T, MINUS, SASS, EXPR)                                             \
  struct NAME : Pair<T>, Cheap {                                                         \
    OP(NAME, KEY, MINUS, #EXPR);                                                         \
    static constexpr SassCount Sass[] = {{SASS, 1}};                                     \
    __device__ void step() { P = EXPR; }                                                 \
  }
CVT(CvtF32S32, "cvt.f32.s32", int, "add.s32", "I2FP?\\.F32\\.S32", __float_as_int(float(P)) + Q);
CVT(CvtS32F32, "cvt.s32.f32", float, "add.f32", "F2I\\.TRUNC.*", __int_as_float(int(P)) + Q);
CVT(CvtF64F32, "cvt.f64.f32", float, "add.f32", "F2F\\.F64\\.F32", __int_as_float(__double2hiint(double(P))) + Q);
CVT(CvtF32F64, "cvt.f32.f64", double, "add.f64", "F2F\\.F32\\.F64", __hiloint2double(__float_as_int(float(P)), 0) + Q);
CVT(CvtF64S32, "cvt.f64.s32", int, "add.s32", "I2F\\.F64", __double2hiint(double(P)) + Q);
CVT(CvtS32F64, "cvt.s32.f64", double, "add.f64", "F2I\\.F64\\.TRUNC.*", __hiloint2double(int(P), 0) + Q);
#undef CVT

// ---- half precision -------------------------------------------------------
struct AddF16 : Pair<__half>, Cheap {
  OP(AddF16, "add.f16", "", "__hadd(p, q)");
  static constexpr SassCount Sass[] = {{"HADD2.*", 1}};
  __device__ void step() { P = __hadd(P, Q); }
};
struct FmaF16 : Pair<__half>, Cheap {
  OP(FmaF16, "fma.f16", "", "__hfma(p, q, q)");
  static constexpr SassCount Sass[] = {{"HFMA2", 1}}; // HFMA2.MMA is ptxas's move
  __device__ void step() { P = __hfma(P, Q, Q); }
};

// ---- warp-wide operations -------------------------------------------------
struct ShflIdx : Pair<int>, Cheap {
  // Each lane reads the next lane's value, which differs from its own:
  // ptxas drops a shuffle of a value it knows is the same in every lane.
  OP(ShflIdx, "shfl.sync.idx.i32", "", "__shfl_sync(full, p, lane + 1), p different in every lane");
  static constexpr SassCount Sass[] = {{"SHFL\\.IDX", 1}};
  __device__ void init(const latency::ChainArgs &A) {
    Pair::init(A);
    P += threadIdx.x % 32;
    Q = (threadIdx.x + 1) % 32;
  }
  __device__ void step() { P = __shfl_sync(0xffffffffu, P, Q); }
};
struct VoteBallot : Pair<int>, Cheap {
  OP(VoteBallot, "vote.ballot.sync", "setp.s32", "__ballot_sync(full, p < q) (setp subtracted)");
  static constexpr SassCount Sass[] = {{"VOTE\\.ANY", 1}};
  __device__ void step() { P = int(__ballot_sync(0xffffffffu, P < Q)); }
};

// ---- special registers: ptxas reads %tid once per kernel, so the chain
// reads %smid, which PTX declares volatile: the same S2R, never hoisted.
struct MovSreg : Pair<int>, Cheap {
  OP(MovSreg, "mov.sreg", "add.s32", "S2R of %smid then add.s32");
  static constexpr SassCount Sass[] = {{"S2R", 1}};
  __device__ void step() {
    int T;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(T));
    asm volatile("add.s32 %0, %0, %1;" : "+r"(P) : "r"(T));
  }
};

// ---- libdevice functions, inlined: the whole sequence ---------------------
// Keyed as latency-keys.md keys a call left out of line (__nv_ dropped).
#define LIBDEVICE(NAME, KEY, SASS, EXPR)                                                 \
  struct NAME : Pair<float>, Costly {                                                    \
    OP(NAME, KEY, "", #EXPR);                                                            \
    static constexpr SassCount Sass[] = {{SASS, 1}};                                     \
    __device__ void step() { P = EXPR; }                                                 \
  }
// Their marker is the quadrant's conversion, once per call.
LIBDEVICE(CallSinf, "call.sinf", "I2FP\\.F32\\.S32", sinf(P));
LIBDEVICE(CallCosf, "call.cosf", "I2FP\\.F32\\.S32", cosf(P));
LIBDEVICE(CallTanf, "call.tanf", "I2FP\\.F32\\.S32", tanf(P));
LIBDEVICE(CallExpf, "call.fast_expf", "MUFU\\.EX2", __expf(P));
LIBDEVICE(CallLogf, "call.fast_logf", "MUFU\\.LG2", __logf(P));
LIBDEVICE(CallLog2f, "call.fast_log2f", "MUFU\\.LG2", __log2f(P));
LIBDEVICE(CallLog10f, "call.fast_log10f", "MUFU\\.LG2", __log10f(P));
LIBDEVICE(CallPowf, "call.fast_powf", "MUFU\\.EX2", __powf(P, Q));
LIBDEVICE(CallTanFast, "call.fast_tanf", "MUFU\\.SIN", __tanf(P));
LIBDEVICE(CallFdividef, "call.fast_fdividef", "MUFU\\.RCP", __fdividef(Q, P));
#undef LIBDEVICE

#undef OP
} // namespace ops

namespace latency {
namespace {

template <class... Ops> struct List {};

// In order: every companion comes before the operations that subtract it.
using Instructions = List<
    ops::AddS32, ops::SubS32, ops::MulS32, ops::MadS32, ops::Mul24S32, ops::Mul24U32,
    ops::ShlB32, ops::ShrU32, ops::ShrS32, ops::AddS64, ops::MadS64, ops::DivS32, ops::DivU32,
    ops::RemS32, ops::RemU32, ops::AndB32, ops::OrB32, ops::XorB32, ops::MinS32, ops::MaxS32,
    ops::MinU32, ops::MaxU32, ops::AbsS32, ops::SelpB32, ops::SetpS32, ops::AddF32, ops::SubF32,
    ops::MulF32, ops::FmaF32, ops::AddRnF32, ops::MulRnF32, ops::AddF64, ops::SubF64, ops::MulF64,
    ops::FmaF64, ops::AddRnF64, ops::DivF32, ops::DivF64, ops::DivApproxF32, ops::SqrtApproxF32,
    ops::SqrtF32, ops::SqrtF64, ops::RsqrtF32, ops::RcpF32, ops::Ex2F32, ops::Lg2F32,
    ops::SinApproxF32, ops::CosApproxF32, ops::MinF32, ops::MaxF32, ops::MinF64, ops::MaxF64,
    ops::AbsF32, ops::NegF32, ops::CvtF32S32, ops::CvtS32F32, ops::CvtF64F32, ops::CvtF32F64,
    ops::CvtF64S32, ops::CvtS32F64, ops::AddF16, ops::FmaF16, ops::ShflIdx, ops::VoteBallot,
    ops::MovSreg, ops::CallSinf, ops::CallCosf, ops::CallTanf, ops::CallExpf, ops::CallLogf,
    ops::CallLog2f, ops::CallLog10f, ops::CallPowf, ops::CallTanFast, ops::CallFdividef>;

// Operand seeds per operation: values that keep each chain away from
// special cases (division by zero, overflow into a slow path). Integer
// chains run on whatever values arise: their latency does not depend on them.
template <class Op> ChainArgs seeds() {
  ChainArgs A;
  A.A = 1.5;
  A.B = 1.0000001;
  if constexpr (std::is_same_v<decltype(Op::P), int> || std::is_same_v<decltype(Op::P), unsigned>) {
    A.A = 7;
    A.B = 1000000007;
  }
  if constexpr (std::is_same_v<Op, ops::ShlB32> || std::is_same_v<Op, ops::ShrU32> ||
                std::is_same_v<Op, ops::ShrS32>)
    A.B = 1;
  if constexpr (std::is_same_v<Op, ops::DivF32> || std::is_same_v<Op, ops::DivF64> ||
                std::is_same_v<Op, ops::DivApproxF32> || std::is_same_v<Op, ops::CallFdividef>)
    A.B = 3; // p alternates between 1.5 and 2
  if constexpr (std::is_same_v<Op, ops::CallTanf> || std::is_same_v<Op, ops::CallTanFast>)
    A.A = 0.01; // tan(tan(...)) grows slowly from here and stays off the slow path
  return A;
}

template <class... Ops> void runAll(List<Ops...>, Context &C, Results &R) {
  (measureChain<Ops>(C, R, "instructions", seeds<Ops>()), ...);
}
template <class... Ops> void describeAll(List<Ops...>, std::vector<SassExpectation> &Out) {
  (describeChain<Ops>(Out), ...);
}

} // namespace

void runInstructions(Context &C, Results &R) {
  runAll(Instructions{}, C, R);
  R.Missing.push_back({"tex", "instructions",
                       "texture fetches are not measured: ld.global.nc (the read-only path "
                       "through the texture cache) is, in the memory group"});
}

void describeInstructions(std::vector<SassExpectation> &Out) { describeAll(Instructions{}, Out); }

} // namespace latency
