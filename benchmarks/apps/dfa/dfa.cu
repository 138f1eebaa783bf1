// Multi-pattern search with a DFA, grep-like: a thread runs one log record
// (20 to 2000 bytes, lognormal; DfaRecords.h) through an Aho-Corasick
// automaton for 16 patterns (DfaAutomaton.h), counting the matches of 13
// keywords and stopping at the first of 3 stop patterns (DfaScan.h). A warp
// runs as long as its longest scan: the record's length, unless a stop
// pattern cuts it short. Memory-bound: every byte is a gather from the 40 KB
// transition table, whose lanes touch ~3 distinct 128-byte lines per warp
// instruction in record order (~7 with full warps), so the L1 cache's line
// lookups, not the ~7 integer instructions per byte, bound it; the text
// streams in once, 16 bytes per load.
//
// Hand-written regrouping: records sorted by their length, which is already
// on the device (no key kernel); stops make it an estimate.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "DfaAutomaton.h"
#include "DfaRecords.h"
#include "DfaReference.h"
#include "DfaScan.h"

namespace dfa {

// Record I's match count goes to Out[I], its stop position to Out[N + I].
__device__ inline void scanOne(const Automaton &A, uint32_t I, uint32_t N, const Chunk *Text,
                               const uint32_t *Offsets, const uint32_t *Lengths, int32_t *Out) {
  const ScanResult R = scanRecord(A, Text + Offsets[I], Lengths[I]);
  Out[I] = int32_t(R.Matches);
  Out[N + I] = R.Stop;
}

} // namespace dfa

// The automaton's tables are separate restrict parameters (not an Automaton
// argument) so that the compiler reads them through the read-only path.
__global__ void dfaScan(const uint16_t *__restrict__ Next, const uint8_t *__restrict__ StopLength,
                        uint32_t FirstStop, uint32_t N, const dfa::Chunk *__restrict__ Text,
                        const uint32_t *__restrict__ Offsets, const uint32_t *__restrict__ Lengths,
                        int32_t *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    dfa::scanOne({Next, StopLength, FirstStop}, T, N, Text, Offsets, Lengths, Out);
}

// The hand-written copy: thread T scans record Order[T].
__global__ void dfaScanSorted(const uint16_t *__restrict__ Next,
                              const uint8_t *__restrict__ StopLength, uint32_t FirstStop,
                              uint32_t N, const uint32_t *__restrict__ Order,
                              const dfa::Chunk *__restrict__ Text,
                              const uint32_t *__restrict__ Offsets,
                              const uint32_t *__restrict__ Lengths, int32_t *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    dfa::scanOne({Next, StopLength, FirstStop}, Order[T], N, Text, Offsets, Lengths, Out);
}

namespace {

// Record lengths, and how much of a warp (32 consecutive records) would be
// busy if every record were scanned to its end: the mean over warps of mean /
// max length (stops lower it further).
void printRecords(const dfa::Records &R, const dfa::Tables &Dfa) {
  const uint32_t N = uint32_t(R.Lengths.size());
  double LaneShare = 0;
  for (uint32_t W = 0; W < N; W += 32) {
    const uint32_t Lanes = std::min(32u, N - W);
    uint64_t Sum = 0, Max = 0;
    for (uint32_t I = W; I < W + Lanes; ++I) {
      Sum += R.Lengths[I];
      Max = std::max<uint64_t>(Max, R.Lengths[I]);
    }
    LaneShare += double(Sum) / Lanes / Max;
  }
  std::vector<uint32_t> Sorted = R.Lengths;
  std::sort(Sorted.begin(), Sorted.end());
  std::fprintf(stderr,
               "dfa: %u records, %.1f MB of text, %u to %u bytes (median %u); automaton of %u "
               "states (%.0f KB); by length, warps of 32 use %.0f%% of their lanes\n",
               N, R.Text.size() * double(dfa::ChunkBytes) / 1e6, Sorted.front(), Sorted.back(),
               Sorted[N / 2], Dfa.States, Dfa.Next.size() * 2 / 1024.0,
               100 * LaneShare / ((N + 31) / 32));
}

} // namespace

int main(int argc, char **argv) {
  // Offsets count 16-byte chunks (~13 a record): 32 bits reach well beyond MaxSize.
  const bench::AppInfo App{"dfa",
                           "Aho-Corasick DFA over log records (20 to 2000 bytes), a record per "
                           "thread: keyword counts, early exit at a stop pattern",
                           "records", 1ull << 23, false, 1ull << 25};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const dfa::Tables Dfa = dfa::buildAutomaton(dfa::patterns());
  const dfa::Records In = dfa::generateRecords(N, O.Seed);
  if (!O.Quiet)
    printRecords(In, Dfa);

  bench::DeviceBuffer<uint16_t> Next(Dfa.Next);
  bench::DeviceBuffer<uint8_t> StopLength(Dfa.StopLength);
  bench::DeviceBuffer<uint32_t> Offsets(In.Offsets), Lengths(In.Lengths);
  bench::DeviceBuffer<dfa::Chunk> Text(In.Text);
  bench::DeviceBuffer<int32_t> Out(2 * size_t(N));
  const unsigned Block = 256, Grid = (N + Block - 1) / Block;

  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)dfaScan);
    R.TimesMs = bench::timeLaunches(
        [&] {
          dfaScan<<<Grid, Block>>>(Next.get(), StopLength.get(), Dfa.FirstStop, N, Text.get(),
                                   Offsets.get(), Lengths.get(), Out.get());
        },
        O.Repeat);
  } else {
    // The key, the record length, is already on the device.
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::sortByKeyDescending(Lengths.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)dfaScanSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          dfaScanSorted<<<Grid, Block>>>(Next.get(), StopLength.get(), Dfa.FirstStop, N, Order,
                                         Text.get(), Offsets.get(), Lengths.get(), Out.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<int32_t> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(int32_t));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "dfa: checking against the CPU reference\n");
    const std::vector<int32_t> Want = dfa::referenceScan(In, dfa::patterns());
    for (size_t K = 0; K < Got.size(); ++K)
      if (Got[K] != Want[K])
        bench::requireMatch(false, std::string(K < N ? "matches" : "stop position") +
                                       " of record " + std::to_string(K % N) + " (" +
                                       std::to_string(In.Lengths[K % N]) + " bytes): GPU " +
                                       std::to_string(Got[K]) + ", CPU " + std::to_string(Want[K]));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
