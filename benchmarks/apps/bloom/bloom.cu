// Batched set-membership filtering, one query per thread (1-D grid, 128
// threads a block), as a database's semi-join (Bloom join) filters the join
// keys of each probe-side row group, or a genome pipeline screens a read's
// k-mers: a Bloom filter of the build side's keys (BloomFilter.h: 2^29 bits,
// 64 MiB at the default size, more than the H100's 50 MB L2, 8 hash
// functions by double hashing, built on the host) and lists of 64-bit probe
// keys in CSR form (BloomInput.h). A thread tests each key of its list and
// stops probing a key at its first zero bit (BloomProbe.h), writing how many
// of its keys pass and a hash of their positions. Divergence comes from the
// lists' lengths (1 to 512 keys, lognormal) and from their share of members:
// a member costs 8 probes, any other key about 2, and queries are mostly
// members, mostly not, or mixed, so a warp waits for its longest, most
// member-rich list. Memory-bound: every probe is one 8-byte gather from a
// random place in the filter, each waiting for the one before.
//
// Hand-written regrouping: queries sorted by their list length, the work
// known before filtering, which a small kernel reads off the offsets.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "BloomFilter.h"
#include "BloomInput.h"
#include "BloomProbe.h"
#include "BloomReference.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace bloom {

struct DeviceQueries {
  uint32_t Queries;
  uint32_t LogBits;
  const uint64_t *Words;
  const uint32_t *QueryStart;
  const uint64_t *Keys;
};

// Query Q's verdict goes to Out[Q].
__device__ inline void storeVerdict(const DeviceQueries &D, uint32_t Q, Verdict *Out) {
  Out[Q] = filterQuery(D.Words, D.LogBits, D.QueryStart, D.Keys, Q);
}

} // namespace bloom

using bloom::DeviceQueries;
using bloom::Verdict;

__global__ void bloomFilterQueries(DeviceQueries D, Verdict *__restrict__ Out) {
  uint32_t Q = blockIdx.x * blockDim.x + threadIdx.x;
  if (Q < D.Queries)
    bloom::storeVerdict(D, Q, Out);
}

// The hand-written copy: thread T filters query Order[T].
__global__ void bloomFilterQueriesSorted(DeviceQueries D, const uint32_t *__restrict__ Order,
                                         Verdict *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < D.Queries)
    bloom::storeVerdict(D, Order[T], Out);
}

__global__ void bloomListLengths(DeviceQueries D, uint32_t *__restrict__ Keys) {
  uint32_t Q = blockIdx.x * blockDim.x + threadIdx.x;
  if (Q < D.Queries)
    Keys[Q] = D.QueryStart[Q + 1] - D.QueryStart[Q];
}

namespace {

// Keys per query, the filter's fill, and how much of a warp (32 consecutive
// queries) the key loop keeps busy: the keys over 32 times the sum of the
// warps' longest lists.
void printLists(const bloom::Input &In) {
  const uint32_t N = In.queries();
  uint64_t SetBits = 0;
  for (uint64_t W : In.Bloom.Words)
    SetBits += uint64_t(__builtin_popcountll(W));
  double WarpKeys = 0;
  uint32_t Max = 0;
  for (uint32_t W = 0; W < N; W += 32) {
    const uint32_t Lanes = std::min(32u, N - W);
    uint32_t WarpMax = 0;
    for (uint32_t Q = W; Q < W + Lanes; ++Q)
      WarpMax = std::max(WarpMax, In.QueryStart[Q + 1] - In.QueryStart[Q]);
    WarpKeys += double(Lanes) * WarpMax;
    Max = std::max(Max, WarpMax);
  }
  std::fprintf(stderr,
               "bloom: %llu members in 2^%u bits (%.1f%% set), %u queries, %.1f keys per query "
               "(at most %u); warps of 32 use %.0f%% of their lanes for keys\n",
               (unsigned long long)In.Bloom.Members, In.Bloom.LogBits,
               100.0 * double(SetBits) / double(uint64_t(1) << In.Bloom.LogBits), N,
               double(In.Keys.size()) / N, Max, 100 * double(In.Keys.size()) / WarpKeys);
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"bloom",
                           "Bloom-filter semi-join: a query per thread tests its list of keys "
                           "(1 to 512) against a 64 MiB filter, stopping each at its first zero bit",
                           "queries", 1ull << 20, false, 1ull << 22};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const bloom::Input In = bloom::generate(N, O.Seed);
  if (!O.Quiet)
    printLists(In);

  bench::DeviceBuffer<uint64_t> Words(In.Bloom.Words), Keys(In.Keys);
  bench::DeviceBuffer<uint32_t> QueryStart(In.QueryStart);
  bench::DeviceBuffer<Verdict> Out(N);
  const DeviceQueries D{N, In.Bloom.LogBits, Words.get(), QueryStart.get(), Keys.get()};
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;

  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)bloomFilterQueries);
    R.TimesMs = bench::timeLaunches([&] { bloomFilterQueries<<<Grid, Block>>>(D, Out.get()); },
                                    O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> SortKeys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs([&] { bloomListLengths<<<Grid, Block>>>(D, SortKeys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(SortKeys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)bloomFilterQueriesSorted);
    R.TimesMs = bench::timeLaunches(
        [&] { bloomFilterQueriesSorted<<<Grid, Block>>>(D, Order, Out.get()); }, O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<Verdict> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(Verdict));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "bloom: checking against the CPU reference\n");
    const bloom::Reference Want = bloom::referenceVerdicts(In);
    bench::requireMatch(Want.MissedMember == UINT64_MAX,
                        "the filter misses the member key at " + std::to_string(Want.MissedMember) +
                            " of the lists (its build is wrong)");
    for (uint32_t Q = 0; Q < N; ++Q)
      if (Got[Q].Passed != Want.Verdicts[Q].Passed ||
          Got[Q].PositionHash != Want.Verdicts[Q].PositionHash)
        bench::requireMatch(false, "query " + std::to_string(Q) + " (" +
                                       std::to_string(In.QueryStart[Q + 1] - In.QueryStart[Q]) +
                                       " keys): GPU " + std::to_string(Got[Q].Passed) +
                                       " pass, position hash " +
                                       std::to_string(Got[Q].PositionHash) + "; CPU " +
                                       std::to_string(Want.Verdicts[Q].Passed) +
                                       " pass, position hash " +
                                       std::to_string(Want.Verdicts[Q].PositionHash));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
