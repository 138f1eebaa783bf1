// Batched small SAT solving, as bounded model checking and circuit
// equivalence sweeps issue it: thousands of tiny independent instances
// solved at once, a thread per instance. Each thread runs a DPLL solver
// (SatSolve.h: unit propagation with clauses and the assignment as 64-bit
// variable masks, chronological backtracking over a 40-byte trail in a local array, no
// recursion) on its own random 3-SAT instance of 16 to 40 variables near the
// satisfiability threshold (SatInstances.h: 2^16 by default, clause /
// variable ratios 4.0 to 4.5). Divergence comes from the search: an instance
// is settled after 2 decisions or needs over a hundred, and every decision
// and backtrack costs one or more sweeps over its clauses (90 to 21,000
// 16-byte loads per instance), so a warp runs as long as its hardest
// instance (at most DecisionCap = 128 decisions: then it reports "capped").
// Compute-bound: an instance's ~120 clauses (476 bytes on average; the
// default batch is 31 MB, inside the L2) are read from global memory once
// per sweep, ~82 times on average and up to ~500, four per 16-byte load,
// against some 33 integer PTX instructions per clause.
//
// Hand-written regrouping: instances sorted by their clause count (the
// clause / variable ratio times the variables), which a small kernel reads
// off the CSR offsets.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "SatInstances.h"
#include "SatReference.h"
#include "SatSolve.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace sat {

struct DeviceBatch {
  uint32_t Instances;
  const uint32_t *FirstQuad;
  const ClauseQuad *Quads;
};

__device__ inline void storeVerdict(const DeviceBatch &B, uint32_t I, Verdict *Out) {
  const uint32_t First = B.FirstQuad[I];
  Out[I] = solve(B.Quads + First, B.FirstQuad[I + 1] - First);
}

} // namespace sat

using sat::DeviceBatch;
using sat::Verdict;

__global__ void satSolve(DeviceBatch B, Verdict *__restrict__ Out) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < B.Instances)
    sat::storeVerdict(B, I, Out);
}

// The hand-written copy: thread T solves instance Order[T].
__global__ void satSolveSorted(DeviceBatch B, const uint32_t *__restrict__ Order,
                               Verdict *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < B.Instances)
    sat::storeVerdict(B, Order[T], Out);
}

__global__ void satClauseCounts(DeviceBatch B, uint32_t *__restrict__ Keys) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < B.Instances)
    Keys[I] = 4 * (B.FirstQuad[I + 1] - B.FirstQuad[I]);
}

namespace {

const char *statusName(uint32_t S) {
  return S == sat::Satisfiable ? "SAT" : S == sat::Unsatisfiable ? "UNSAT" : "capped";
}

std::string verdictText(const Verdict &V) {
  char Text[96];
  std::snprintf(Text, sizeof Text, "%s after %u decisions, model %#llx", statusName(V.Outcome),
                V.Decisions, static_cast<unsigned long long>(V.Model));
  return Text;
}

// Outcomes and decisions per instance, and how much of a warp (32
// consecutive instances) the search keeps busy counting decisions: the sum
// of decisions over 32 x the sum of each warp's most.
void printSearches(const std::vector<Verdict> &Want) {
  const size_t N = Want.size();
  size_t Count[3] = {0, 0, 0};
  uint64_t Total = 0, WarpMaxima = 0;
  for (size_t W = 0; W < N; W += 32) {
    uint32_t WarpMax = 0;
    for (size_t I = W; I < std::min(N, W + 32); ++I) {
      ++Count[Want[I].Outcome];
      Total += Want[I].Decisions;
      WarpMax = std::max(WarpMax, Want[I].Decisions);
    }
    WarpMaxima += WarpMax;
  }
  std::fprintf(stderr,
               "sat: %zu SAT, %zu UNSAT, %zu capped at %u decisions; %.1f decisions per "
               "instance; warps of 32 use %.0f%% of their lanes in decisions\n",
               Count[sat::Satisfiable], Count[sat::Unsatisfiable], Count[sat::Capped],
               sat::DecisionCap, double(Total) / N,
               WarpMaxima ? 100.0 * Total / (32.0 * WarpMaxima) : 100.0);
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"sat",
                           "DPLL (unit propagation, chronological backtracking) on a random "
                           "3-SAT instance of 16 to 40 variables per thread",
                           "instances", 1ull << 16, true, 1ull << 22};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const sat::Batch In = sat::generateBatch(N, O.Seed);
  if (!O.Quiet)
    std::fprintf(stderr, "sat: %u instances, %.1f clauses each on average\n", N,
                 4.0 * In.Quads.size() / N);

  bench::DeviceBuffer<uint32_t> FirstQuad(In.FirstQuad);
  bench::DeviceBuffer<sat::ClauseQuad> Quads(In.Quads);
  bench::DeviceBuffer<Verdict> Out(N);
  const DeviceBatch B{N, FirstQuad.get(), Quads.get()};
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)satSolve);
    R.TimesMs =
        bench::timeLaunches([&] { satSolve<<<Grid, Block>>>(B, Out.get()); }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs([&] { satClauseCounts<<<Grid, Block>>>(B, Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)satSolveSorted);
    R.TimesMs = bench::timeLaunches(
        [&] { satSolveSorted<<<Grid, Block>>>(B, Order, Out.get()); }, O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<Verdict> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(Verdict));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "sat: checking against the CPU reference\n");
    const std::vector<Verdict> Want = sat::referenceVerdicts(In);
    if (!O.Quiet)
      printSearches(Want);
    for (uint32_t I = 0; I < N; ++I) {
      const Verdict &G = Got[I], &W = Want[I];
      if (G.Model != W.Model || G.Decisions != W.Decisions || G.Outcome != W.Outcome)
        bench::requireMatch(false, "instance " + std::to_string(I) + " (" +
                                       std::to_string(In.Vars[I]) + " variables): GPU " +
                                       verdictText(G) + ", CPU " + verdictText(W));
    }
    // Equal models could still be wrong in the same way: each must satisfy
    // its instance.
    for (uint32_t I = 0; I < N; ++I)
      if (Got[I].Outcome == sat::Satisfiable && !sat::satisfies(In, I, Got[I].Model))
        bench::requireMatch(false, "instance " + std::to_string(I) + ": the model of " +
                                       verdictText(Got[I]) + " leaves a clause false");
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
