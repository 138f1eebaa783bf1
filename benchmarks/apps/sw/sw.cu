// Smith-Waterman (seed 002 Table I, "SW"): the best local alignment score of
// one protein query against every database sequence, one sequence per thread.
// Threads diverge because database lengths are skewed (SwInput.h).
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "SwAlign.h"
#include "SwInput.h"
#include "SwReference.h"

#include <cstdint>
#include <cstdio>
#include <string>

// The timed kernel: thread S scores database sequence S.
__global__ void swScores(const uint8_t *__restrict__ Residues,
                         const uint32_t *__restrict__ Offsets,
                         const uint32_t *__restrict__ Lengths,
                         const int *__restrict__ Profile, uint32_t QueryLen,
                         uint32_t NumSeqs, int *__restrict__ Scores) {
  uint32_t S = blockIdx.x * blockDim.x + threadIdx.x;
  if (S < NumSeqs)
    Scores[S] = sw::alignOne(Residues + Offsets[S], Lengths[S], Profile, QueryLen);
}

// The hand-written regrouping: the same work, thread T scoring sequence
// Perm[T] (sequences sorted by length, longest first).
__global__ void swScoresSorted(const uint8_t *__restrict__ Residues,
                               const uint32_t *__restrict__ Offsets,
                               const uint32_t *__restrict__ Lengths,
                               const int *__restrict__ Profile,
                               uint32_t QueryLen, uint32_t NumSeqs,
                               const uint32_t *__restrict__ Perm,
                               int *__restrict__ Scores) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= NumSeqs)
    return;
  uint32_t S = Perm[T];
  Scores[S] = sw::alignOne(Residues + Offsets[S], Lengths[S], Profile, QueryLen);
}

int main(int argc, char **argv) {
  // Offsets are 32-bit: keep the database (about 60 residues a sequence) small.
  const bench::AppInfo App{
      "sw", "Smith-Waterman local alignment, one database sequence per thread",
      "sequences", 1u << 19, true, (1u << 24)};
  bench::Options O = bench::parseOptions(argc, argv, App);
  if (!O.Quiet)
    std::fprintf(stderr, "sw: generating %llu sequences\n",
                 static_cast<unsigned long long>(O.Size));
  const sw::Input In = sw::generate(O.Size, O.Seed);
  if (In.Residues.size() > UINT32_MAX) {
    std::fprintf(stderr, "bench-app-sw: the input has more residues than 32-bit offsets reach\n");
    return 1;
  }
  const uint32_t N = static_cast<uint32_t>(O.Size);

  bench::DeviceBuffer<uint8_t> Residues(In.Residues);
  bench::DeviceBuffer<uint32_t> Offsets(In.Offsets), Lengths(In.Lengths);
  bench::DeviceBuffer<int> Profile(In.Profile), Scores(N);
  const uint32_t Block = 128, Grid = (N + Block - 1) / Block;

  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)swScores);
    R.TimesMs = bench::timeLaunches([&] {
      swScores<<<Grid, Block>>>(Residues.get(), Offsets.get(), Lengths.get(),
                                Profile.get(), sw::QueryLength, N, Scores.get());
    }, O.Repeat);
  } else {
    // The work key is the sequence length (the query is the same for all),
    // already on the device: no key computation to time.
    uint32_t *Perm = nullptr;
    R.RegroupMs = bench::sortByKeyDescending(Lengths.get(), N, &Perm);
    R.Kernel = bench::kernelName((const void *)swScoresSorted);
    R.TimesMs = bench::timeLaunches([&] {
      swScoresSorted<<<Grid, Block>>>(Residues.get(), Offsets.get(),
                                      Lengths.get(), Profile.get(),
                                      sw::QueryLength, N, Perm, Scores.get());
    }, O.Repeat);
    BENCH_CUDA(cudaFree(Perm));
  }
  const std::vector<int> Got = Scores.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(int));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "sw: checking against the CPU reference\n");
    const std::vector<int> Want = sw::referenceScores(In);
    for (uint32_t S = 0; S < N; ++S)
      if (Got[S] != Want[S])
        bench::requireMatch(false, "score of sequence " + std::to_string(S) +
                                       ": GPU " + std::to_string(Got[S]) +
                                       ", CPU " + std::to_string(Want[S]));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
