// Dependent chains (Wong et al.'s method, seed 003 section 3.1): one warp
// runs L copies of an operation, each consuming the previous result, between
// two clock64() reads. Two lengths, Op::Short and Op::Long, are timed and the
// slope (T_long - T_short) / (Long - Short) is the latency: the loop, the
// clock reads and the first and last instructions' edges cancel.
//
// An operation is a struct in namespace ops with
//   Key, Name       its latency-table key and its type's name (for the SASS manifest)
//   Short, Long     the two chain lengths
//   Sass[]          {opcode regex, instructions per step} the timed SASS must hold
//   Minus           keys whose measured latency is subtracted: the companion
//                   instructions a chain needs so ptxas cannot fold it ("" if none)
//   How             one line saying what one step is
//   init(Args), step(), publish(Sink)   its device side
// The results are stored before the second clock read, so the chain must
// finish inside the timed region and nothing is dead.
#pragma once
#include "Results.h"
#include "Stats.h"
#include "Suite.h"
#include "divopt/CudaCheck.h"

#include <string>
#include <vector>

namespace latency {

struct ChainArgs {
  double A = 1, B = 1;         // operand seeds, converted by each operation to its type
  void *Buffer = nullptr;     // memory operations: the ring they chase through
  void *Sink = nullptr;       // the chain's registers end here
  long long *Cycles = nullptr; // one per in-kernel repetition
  int Reps = 0;
};

struct SassCount {
  const char *Opcode;
  int PerStep;
};

// In-kernel repetitions per launch; the first warms the instruction cache
// (seed 000's pre-heat run) and is not used.
constexpr int ChainReps = 8;

} // namespace latency

template <class Op, int L>
__global__ void __launch_bounds__(32) chain(latency::ChainArgs Args) {
  Op Chain;
  Chain.init(Args);
#pragma unroll 1
  for (int R = 0; R < Args.Reps; ++R) {
    long long T0 = clock64();
#pragma unroll
    for (int I = 0; I < L; ++I)
      Chain.step();
    Chain.publish(Args.Sink);
    long long T1 = clock64();
    Args.Cycles[R] = T1 - T0;
  }
}

namespace latency {

template <class Op, int L> std::string chainKernelName() {
  return std::string("chain<ops::") + Op::Name + ", " + std::to_string(L) + ">";
}

template <class Op> void describeChain(std::vector<SassExpectation> &Out) {
  for (const SassCount &S : Op::Sass) {
    Out.push_back({chainKernelName<Op, Op::Short>(), S.Opcode, S.PerStep * Op::Short, Op::Key});
    Out.push_back({chainKernelName<Op, Op::Long>(), S.Opcode, S.PerStep * Op::Long, Op::Key});
  }
}

// Cycles of each in-kernel repetition but the first.
template <class Op, int L> std::vector<double> timeOnce(ChainArgs &Args) {
  chain<Op, L><<<1, 32>>>(Args);
  CHECK(cudaGetLastError());
  long long Cycles[ChainReps];
  CHECK(cudaMemcpy(Cycles, Args.Cycles, sizeof Cycles, cudaMemcpyDeviceToHost));
  // A pointer chase that must not revisit lines goes on where it stopped.
  if constexpr (Op::Continues)
    CHECK(cudaMemcpy(&Args.Buffer, Args.Sink, sizeof(void *), cudaMemcpyDeviceToHost));
  return std::vector<double>(Cycles + 1, Cycles + ChainReps);
}

// Per-step cycles of Op's chain, one sample per launch and repetition.
template <class Op> std::vector<double> chainSlopes(const Context &C, ChainArgs Args) {
  long long *Cycles;
  void *Sink;
  CHECK(cudaMalloc(&Cycles, ChainReps * sizeof(long long)));
  CHECK(cudaMalloc(&Sink, 64));
  Args.Cycles = Cycles;
  Args.Sink = Sink;
  Args.Reps = ChainReps;
  std::vector<double> Slopes;
  for (int Launch = 0; Launch < C.Repeat; ++Launch) {
    std::vector<double> Short = timeOnce<Op, Op::Short>(Args);
    std::vector<double> Long = timeOnce<Op, Op::Long>(Args);
    for (size_t R = 0; R < Short.size(); ++R)
      Slopes.push_back((Long[R] - Short[R]) / (Op::Long - Op::Short));
  }
  CHECK(cudaFree(Cycles));
  CHECK(cudaFree(Sink));
  return Slopes;
}

// Measures Op and records its entry: the chain's slope less the latencies
// of its companions (already in Out), not below zero (the reader takes no
// negative cycles; an instruction folded into its neighbour is free).
template <class Op>
void measureChain(Context &C, Results &Out, const char *Group, ChainArgs Args = {}) {
  C.Report->step(Op::Key);
  Summary S = summarize(chainSlopes<Op>(C, Args));
  Entry E{Op::Key, Group, S.Median, S.Spread, S.Samples, Op::How};
  std::string Minus = Op::Minus;
  for (size_t At = 0; At < Minus.size();) {
    size_t End = Minus.find(' ', At);
    std::string Key = Minus.substr(At, End == std::string::npos ? End : End - At);
    At = End == std::string::npos ? Minus.size() : End + 1;
    const Entry *Companion = Out.find(Key);
    if (!Companion) {
      Out.Missing.push_back({Op::Key, Group, "its companion " + Key + " was not measured"});
      return;
    }
    E.Median -= Companion->Median;
    E.Spread += Companion->Spread;
  }
  if (E.Median < 0) {
    E.How += " (measured " + std::to_string(E.Median) + ": free next to its companion)";
    E.Median = 0;
  }
  Out.Entries.push_back(E);
}

} // namespace latency

// Building blocks of the operations.
namespace ops {

template <class T> __device__ void store(void *Sink, int Index, T Value) {
  unsigned long long Bits = 0;
  __builtin_memcpy(&Bits, &Value, sizeof Value);
  static_cast<volatile unsigned long long *>(Sink)[Index] = Bits;
}

// Two chain registers: P carries the chain, Q is an operand it cannot fold.
template <class T> struct Pair {
  T P, Q;
  static constexpr bool Continues = false;
  __device__ void init(const latency::ChainArgs &A) {
    P = T(A.A);
    Q = T(A.B);
  }
  __device__ void publish(void *Sink) const {
    store(Sink, 0, P);
    store(Sink, 1, Q);
  }
  // Fibonacci style: after P = op(P, Q) the roles swap, so every value feeds
  // two later steps and no two steps can be merged into one instruction.
  __device__ void swap() {
    T X = P;
    P = Q;
    Q = X;
  }
};

// Chain lengths by the cost of one step: long enough that the slope dwarfs
// the clock's jitter, short enough that the code stays in the instruction cache.
struct Cheap {
  static constexpr int Short = 32, Long = 288;
};
struct Medium {
  static constexpr int Short = 16, Long = 144;
};
struct Costly {
  static constexpr int Short = 4, Long = 36;
};

} // namespace ops
