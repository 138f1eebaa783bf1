// Needleman-Wunsch (seed 002 Table I, "NW"): the global alignment score of
// one pair of DNA sequences per thread. Threads diverge because the pairs'
// lengths are skewed (NwInput.h) and the work is their product.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "NwAlign.h"
#include "NwInput.h"
#include "NwReference.h"

#include <cstdint>
#include <cstdio>
#include <string>

// The timed kernel: thread P scores pair P.
__global__ void nwScores(const uint8_t *__restrict__ Bases,
                         const uint32_t *__restrict__ OffsetA,
                         const uint32_t *__restrict__ LengthA,
                         const uint32_t *__restrict__ OffsetB,
                         const uint32_t *__restrict__ LengthB, uint32_t NumPairs,
                         int *__restrict__ Scores) {
  uint32_t P = blockIdx.x * blockDim.x + threadIdx.x;
  if (P < NumPairs)
    Scores[P] = nw::alignPair(Bases + OffsetA[P], LengthA[P], Bases + OffsetB[P],
                              LengthB[P]);
}

// The hand-written regrouping: the same work, thread T scoring pair Perm[T]
// (pairs sorted by the product of their lengths, largest first).
__global__ void nwScoresSorted(const uint8_t *__restrict__ Bases,
                               const uint32_t *__restrict__ OffsetA,
                               const uint32_t *__restrict__ LengthA,
                               const uint32_t *__restrict__ OffsetB,
                               const uint32_t *__restrict__ LengthB,
                               uint32_t NumPairs,
                               const uint32_t *__restrict__ Perm,
                               int *__restrict__ Scores) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= NumPairs)
    return;
  uint32_t P = Perm[T];
  Scores[P] = nw::alignPair(Bases + OffsetA[P], LengthA[P], Bases + OffsetB[P],
                            LengthB[P]);
}

// The hand-written variant's work key: the number of DP cells of the pair.
__global__ void nwWorkKeys(const uint32_t *__restrict__ LengthA,
                           const uint32_t *__restrict__ LengthB,
                           uint32_t NumPairs, uint32_t *__restrict__ Keys) {
  uint32_t P = blockIdx.x * blockDim.x + threadIdx.x;
  if (P < NumPairs)
    Keys[P] = LengthA[P] * LengthB[P];
}

int main(int argc, char **argv) {
  // Offsets are 32-bit: keep the sequences (about 65 bases a pair) small.
  const bench::AppInfo App{
      "nw", "Needleman-Wunsch global alignment, one DNA pair per thread",
      "pairs", 1u << 19, true, (1u << 24)};
  bench::Options O = bench::parseOptions(argc, argv, App);
  if (!O.Quiet)
    std::fprintf(stderr, "nw: generating %llu pairs\n",
                 static_cast<unsigned long long>(O.Size));
  const nw::Input In = nw::generate(O.Size, O.Seed);
  if (In.Bases.size() > UINT32_MAX) {
    std::fprintf(stderr, "bench-app-nw: the input has more bases than 32-bit offsets reach\n");
    return 1;
  }
  const uint32_t N = static_cast<uint32_t>(O.Size);

  bench::DeviceBuffer<uint8_t> Bases(In.Bases);
  bench::DeviceBuffer<uint32_t> OffsetA(In.OffsetA), LengthA(In.LengthA),
      OffsetB(In.OffsetB), LengthB(In.LengthB);
  bench::DeviceBuffer<int> Scores(N);
  const uint32_t Block = 128, Grid = (N + Block - 1) / Block;

  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)nwScores);
    R.TimesMs = bench::timeLaunches([&] {
      nwScores<<<Grid, Block>>>(Bases.get(), OffsetA.get(), LengthA.get(),
                                OffsetB.get(), LengthB.get(), N, Scores.get());
    }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    float KeyMs = bench::timeOnceMs([&] {
      nwWorkKeys<<<Grid, Block>>>(LengthA.get(), LengthB.get(), N, Keys.get());
    });
    uint32_t *Perm = nullptr;
    R.RegroupMs = KeyMs + bench::sortByKeyDescending(Keys.get(), N, &Perm);
    R.Kernel = bench::kernelName((const void *)nwScoresSorted);
    R.TimesMs = bench::timeLaunches([&] {
      nwScoresSorted<<<Grid, Block>>>(Bases.get(), OffsetA.get(), LengthA.get(),
                                      OffsetB.get(), LengthB.get(), N, Perm,
                                      Scores.get());
    }, O.Repeat);
    BENCH_CUDA(cudaFree(Perm));
  }
  const std::vector<int> Got = Scores.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(int));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "nw: checking against the CPU reference\n");
    const std::vector<int> Want = nw::referenceScores(In);
    for (uint32_t P = 0; P < N; ++P)
      if (Got[P] != Want[P])
        bench::requireMatch(false, "score of pair " + std::to_string(P) +
                                       ": GPU " + std::to_string(Got[P]) +
                                       ", CPU " + std::to_string(Want[P]));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
