// MUMmer-like exact matching (seed 002 Table I, "MUM"): each thread scans one
// DNA query for its exact matches of at least MinMatch bases against a
// reference genome indexed by a suffix array (MumMatch.h). Threads diverge
// because query lengths are skewed (MumInput.h) and matches end at different
// places. Memory-bound: the binary searches read the 64 MiB suffix array and
// the 16 MiB reference at scattered places.
//
// Hand-written regrouping: the key is the query length, already on the
// device, so no key computation is timed.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "MumInput.h"
#include "MumMatch.h"
#include "MumReference.h"
#include "SuffixArray.h"

#include <cstdio>
#include <cstring>
#include <string>

// The timed kernel: thread Q matches query Q.
__global__ void mumMatchQueries(const uint8_t *__restrict__ Ref, uint32_t RefLength,
                                const uint32_t *__restrict__ Sa,
                                const uint8_t *__restrict__ Bases,
                                const uint32_t *__restrict__ Offsets,
                                const uint32_t *__restrict__ Lengths, uint32_t NumQueries,
                                mum::Summary *__restrict__ Out) {
  uint32_t Q = blockIdx.x * blockDim.x + threadIdx.x;
  if (Q < NumQueries)
    Out[Q] = mum::matchQuery(Ref, RefLength, Sa, Bases + Offsets[Q], Lengths[Q]);
}

// The hand-written copy: thread T matches query Perm[T].
__global__ void mumMatchQueriesSorted(const uint8_t *__restrict__ Ref, uint32_t RefLength,
                                      const uint32_t *__restrict__ Sa,
                                      const uint8_t *__restrict__ Bases,
                                      const uint32_t *__restrict__ Offsets,
                                      const uint32_t *__restrict__ Lengths, uint32_t NumQueries,
                                      const uint32_t *__restrict__ Perm,
                                      mum::Summary *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= NumQueries)
    return;
  uint32_t Q = Perm[T];
  Out[Q] = mum::matchQuery(Ref, RefLength, Sa, Bases + Offsets[Q], Lengths[Q]);
}

namespace {

std::string describe(const mum::Summary &S) {
  return std::to_string(S.Matches) + " matches, " + std::to_string(S.MatchedBases) +
         " bases, longest " + std::to_string(S.Longest) + " at " + std::to_string(S.LongestPos);
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{
      "mum", "MUMmer-like exact matching of DNA queries against a suffix array, a query per thread",
      "queries", 1u << 19, false, (1u << 24)};
  bench::Options O = bench::parseOptions(argc, argv, App);
  // Offsets are 32-bit: queries average about 80 bases.
  const uint32_t N = static_cast<uint32_t>(O.Size);
  const mum::Input In = mum::generate(N, O.Seed);
  if (!O.Quiet)
    std::fprintf(stderr, "mum: %u queries, %zu bases; building the suffix array of %u bases\n", N,
                 In.Bases.size(), mum::ReferenceLength);
  const std::vector<uint32_t> SuffixArray = mum::buildSuffixArray(In.Reference);

  bench::DeviceBuffer<uint8_t> Ref(In.Reference), Bases(In.Bases);
  bench::DeviceBuffer<uint32_t> Sa(SuffixArray), Offsets(In.Offsets), Lengths(In.Lengths);
  bench::DeviceBuffer<mum::Summary> Out(N);
  const uint32_t G = mum::ReferenceLength;
  const uint32_t Block = 128, Grid = (N + Block - 1) / Block;

  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)mumMatchQueries);
    R.TimesMs = bench::timeLaunches([&] {
      mumMatchQueries<<<Grid, Block>>>(Ref.get(), G, Sa.get(), Bases.get(), Offsets.get(),
                                       Lengths.get(), N, Out.get());
    }, O.Repeat);
  } else {
    uint32_t *Perm = nullptr;
    R.RegroupMs = bench::sortByKeyDescending(Lengths.get(), N, &Perm);
    R.Kernel = bench::kernelName((const void *)mumMatchQueriesSorted);
    R.TimesMs = bench::timeLaunches([&] {
      mumMatchQueriesSorted<<<Grid, Block>>>(Ref.get(), G, Sa.get(), Bases.get(), Offsets.get(),
                                             Lengths.get(), N, Perm, Out.get());
    }, O.Repeat);
    BENCH_CUDA(cudaFree(Perm));
  }
  const std::vector<mum::Summary> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(mum::Summary));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "mum: checking against the CPU reference\n");
    // The reference searches the same suffix array, so it is checked first.
    const size_t Bad = mum::firstSuffixArrayError(In.Reference, SuffixArray);
    if (Bad != SuffixArray.size())
      bench::requireMatch(false, "suffix array entry " + std::to_string(Bad) +
                                     " is out of order or repeated");
    const std::vector<mum::Summary> Want = mum::referenceSummaries(In, SuffixArray);
    for (uint32_t Q = 0; Q < N; ++Q)
      if (std::memcmp(&Got[Q], &Want[Q], sizeof(mum::Summary)) != 0)
        bench::requireMatch(false, "query " + std::to_string(Q) + ": GPU " + describe(Got[Q]) +
                                       ", CPU " + describe(Want[Q]));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
