// Batched Viterbi decoding, as keyword spotters, part-of-speech taggers and
// gene finders decode many sequences through one small hidden Markov model:
// a thread per observation sequence (1-D grid, 128 threads a block) finds
// the most probable state path through the shared model (ViterbiModel.h: 16
// states, 32 symbols, probabilities as integer costs, -log2 p in 1/32 bits),
// the trellis's current column of 16 costs in registers (ViterbiDecode.h),
// and writes the path's cost and a hash of its states. Divergence comes from
// the sequences' lengths (ViterbiInput.h: lognormal, median 32, 8 to 2000
// symbols, 2^19 sequences by default): every step does the same work, so a
// warp runs as long as its longest sequence while most of its lanes are done.
//
// Backpointers (4 bits per state, a 64-bit word per step) go to a region of
// global memory per sequence, laid out like the symbols, and the backtrack
// reads them back, as batched decoders keep a whole utterance's or
// sentence's traceback: a local array would be sized at compile time for the
// longest sequence (16 KB a thread, reserved for every resident thread)
// where global memory gives each sequence what it needs.
//
// Compute-bound: a step is 256 additions and 240 unsigned minima over the
// column, which ptxas fuses into 240 VIADDMNMX, each with its transition cost
// in a uniform register loaded from constant memory (ULDC, ~200 a step), in
// all ~550 SASS instructions a step (nvcc 13 and clang 22 alike, 48
// registers, no stack); it loads one symbol byte and one 64-byte emission
// row (four 16-byte loads from a 2 KiB table, L1-resident), stores one 8-byte
// backpointer word, and the backtrack loads it again (unrolled, 4 to 8
// loads in flight: their addresses do not depend on the states): some 16
// bytes of DRAM traffic a step against ~550 instructions.
//
// Hand-written regrouping: sequences sorted by their trellis size (length x
// states), exact, since every step costs the same; a key kernel reads it off
// the offsets.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "ViterbiDecode.h"
#include "ViterbiInput.h"
#include "ViterbiModel.h"
#include "ViterbiReference.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace viterbi {

// The kernels' copy of the transitions (ViterbiDecode.h says why constant).
__constant__ Transitions DeviceTransitions;

// Sequence I decoded into Out[I]; its backpointers go to its symbols' slice
// of Back.
__device__ inline __attribute__((always_inline)) void
storeDecoded(const uint32_t *First, const uint8_t *Symbols, const EmissionRow *Emission, uint32_t I,
             uint64_t *Back, Decoded *Out) {
  const uint32_t Begin = First[I];
  Out[I] = decode(DeviceTransitions, Emission, Symbols + Begin, First[I + 1] - Begin, Back + Begin);
}

} // namespace viterbi

using viterbi::Decoded;
using viterbi::EmissionRow;

__global__ void viterbiDecode(uint32_t N, const uint32_t *__restrict__ First,
                              const uint8_t *__restrict__ Symbols,
                              const EmissionRow *__restrict__ Emission, uint64_t *__restrict__ Back,
                              Decoded *__restrict__ Out) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    viterbi::storeDecoded(First, Symbols, Emission, I, Back, Out);
}

// The hand-written copy: thread T decodes sequence Order[T].
__global__ void viterbiDecodeSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                    const uint32_t *__restrict__ First,
                                    const uint8_t *__restrict__ Symbols,
                                    const EmissionRow *__restrict__ Emission,
                                    uint64_t *__restrict__ Back, Decoded *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    viterbi::storeDecoded(First, Symbols, Emission, Order[T], Back, Out);
}

// The key: the sequence's trellis nodes, length x states.
__global__ void viterbiTrellisNodes(uint32_t N, const uint32_t *__restrict__ First,
                                    uint32_t *__restrict__ Keys) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Keys[I] = (First[I + 1] - First[I]) * viterbi::States;
}

namespace {

// Steps per sequence and how much of a warp (32 consecutive sequences) the
// step loop keeps busy: all steps over 32 times the sum of the warps'
// longest, in sequence order and sorted by length (the key's order).
void printSteps(const viterbi::Batch &In) {
  const uint32_t N = In.sequences();
  std::vector<uint32_t> Lengths(N);
  for (uint32_t I = 0; I < N; ++I)
    Lengths[I] = In.length(I);
  const auto WarpSteps = [&] {
    uint64_t Sum = 0;
    for (uint32_t W = 0; W < N; W += 32)
      Sum += *std::max_element(Lengths.begin() + W, Lengths.begin() + std::min(N, W + 32));
    return double(Sum);
  };
  const double InOrder = WarpSteps();
  std::sort(Lengths.begin(), Lengths.end());
  const double Sorted = WarpSteps();
  const double Steps = double(In.Symbols.size());
  std::fprintf(stderr,
               "viterbi: %u to %u steps per sequence (median %u, mean %.1f, 99th percentile "
               "%u); %.3g warp-steps; warps of 32 use %.1f%% of their lanes (%.1f%% sorted by "
               "length)\n",
               Lengths.front(), Lengths.back(), Lengths[N / 2], Steps / N,
               Lengths[size_t(N) * 99 / 100], InOrder, 100.0 * Steps / (32.0 * InOrder),
               100.0 * Steps / (32.0 * Sorted));
}

std::string decodedText(const Decoded &D) {
  return "cost " + std::to_string(D.Cost) + ", path hash " + std::to_string(D.PathHash);
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"viterbi",
                           "Viterbi decoding of one observation sequence (8 to 2000 symbols) "
                           "per thread through a shared 16-state integer-cost HMM",
                           "sequences", 1ull << 19, true, viterbi::MaxSequences};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const viterbi::Model M = viterbi::generateModel(O.Seed);
  const viterbi::Batch In = viterbi::generateBatch(M, N, O.Seed);
  if (!O.Quiet)
    std::fprintf(stderr, "viterbi: %u sequences, %.1f symbols each on average\n", N,
                 double(In.Symbols.size()) / N);

  const viterbi::Transitions Packed = viterbi::packTransitions(M);
  BENCH_CUDA(cudaMemcpyToSymbol(viterbi::DeviceTransitions, &Packed, sizeof(Packed)));
  bench::DeviceBuffer<EmissionRow> Emission(viterbi::packEmissions(M));
  bench::DeviceBuffer<uint32_t> First(In.First);
  bench::DeviceBuffer<uint8_t> Symbols(In.Symbols);
  bench::DeviceBuffer<uint64_t> Back(In.Symbols.size());
  bench::DeviceBuffer<Decoded> Out(N);
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)viterbiDecode);
    R.TimesMs = bench::timeLaunches(
        [&] {
          viterbiDecode<<<Grid, Block>>>(N, First.get(), Symbols.get(), Emission.get(), Back.get(),
                                         Out.get());
        },
        O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs(
        [&] { viterbiTrellisNodes<<<Grid, Block>>>(N, First.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)viterbiDecodeSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          viterbiDecodeSorted<<<Grid, Block>>>(N, Order, First.get(), Symbols.get(), Emission.get(),
                                               Back.get(), Out.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  // The output is the decoded records; the backpointers are scratch.
  const std::vector<Decoded> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(Decoded));

  if (O.Check) {
    if (!O.Quiet) {
      std::fprintf(stderr, "viterbi: checking against the CPU reference\n");
      printSteps(In);
    }
    const std::vector<Decoded> Want = viterbi::referenceDecode(M, In);
    for (uint32_t I = 0; I < N; ++I)
      if (Got[I].Cost != Want[I].Cost || Got[I].PathHash != Want[I].PathHash)
        bench::requireMatch(false, "sequence " + std::to_string(I) + " (" +
                                       std::to_string(In.length(I)) + " symbols): GPU " +
                                       decodedText(Got[I]) + ", CPU " + decodedText(Want[I]));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
