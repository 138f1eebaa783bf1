// Range queries on a B+-tree index, as a GPU database or key-value store
// answers a batch of them (SELECT COUNT(*), SUM(value) WHERE key BETWEEN Lo
// AND Hi): one thread per query (1-D grid, 128 threads a block) descends a
// static B+-tree from the root to the leaf that holds the first key >= Lo,
// then scans the leaf entries, across leaves, until a key exceeds Hi,
// summing the values and counting the matches (RangeQuery.h). The index
// (RangeTable.h, RangeTree.h) is 2^24 - 1 sorted uint32 keys with a uint32
// value each, bulk-loaded bottom-up into 128-byte inner nodes of fanout 32
// (4 levels) over 2^19 leaves of 32 entries (128 MiB). The queries
// (RangeQueries.h: 2^22 by default) are half point lookups and half ranges
// whose widths are lognormal-like, 1 to about 4,000 keys (median 64).
// Divergence comes from the scan: every lane's descent is the same, but a
// point lookup reads 1 or 2 entries and a range up to thousands, so a warp
// scans as long as its widest range while most of its lanes are done.
// Memory-bound: a scanned entry is an 8-byte load, a compare and two adds,
// and each lane streams its own part of leaves 2.6 times the L2's size, a
// new line every 16 entries; the descent is 25 dependent loads into nodes
// and leaves scattered over the index.
//
// Hand-written regrouping: queries sorted by their exact work, the nodes
// searched and the entries read: a key kernel answers the same query and
// counts them, so computing the key costs about a launch.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "RangeQueries.h"
#include "RangeQuery.h"
#include "RangeReference.h"
#include "RangeTable.h"
#include "RangeTree.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using range::Answer;
using range::Query;
using range::TreeView;

__global__ void rangeAnswer(TreeView T, uint32_t N, const Query *__restrict__ Queries,
                            Answer *__restrict__ Answers) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Answers[I] = range::answerQuery(T, Queries[I]);
}

// The hand-written copy: thread T answers query Order[T].
__global__ void rangeAnswerSorted(TreeView T, uint32_t N, const uint32_t *__restrict__ Order,
                                  const Query *__restrict__ Queries, Answer *__restrict__ Answers) {
  uint32_t Thread = blockIdx.x * blockDim.x + threadIdx.x;
  if (Thread < N) {
    const uint32_t I = Order[Thread];
    Answers[I] = range::answerQuery(T, Queries[I]);
  }
}

// The key: the query answered for its work alone.
__global__ void rangeWork(TreeView T, uint32_t N, const Query *__restrict__ Queries,
                          uint32_t *__restrict__ Keys) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Keys[I] = range::work(T, range::answerQuery(T, Queries[I]));
}

namespace {

// Entries read per query (the scan's trips: the matches and the one that
// ends it), the point lookups' share, and how much of a warp (32
// consecutive queries) the scan keeps busy: all entries read over 32 times
// the sum of the warps' longest scans.
void printWork(const std::vector<Query> &Queries, const std::vector<Answer> &Want) {
  const size_t N = Want.size();
  std::vector<uint32_t> Read(N);
  uint64_t Total = 0, WarpReads = 0, Points = 0, Hits = 0;
  for (size_t W = 0; W < N; W += 32) {
    uint32_t Longest = 0;
    for (size_t I = W; I < std::min(N, W + 32); ++I) {
      Read[I] = Want[I].Count + 1;
      Total += Read[I];
      Points += Queries[I].Lo == Queries[I].Hi;
      Hits += Queries[I].Lo == Queries[I].Hi && Want[I].Count == 1;
      Longest = std::max(Longest, Read[I]);
    }
    WarpReads += Longest;
  }
  std::sort(Read.begin(), Read.end());
  std::fprintf(stderr,
               "range: %.1f%% point lookups (%.1f%% of them hit); %u to %u entries read per "
               "query after the descent (median %u, 90th percentile %u, 99th %u, mean %.1f); "
               "warps of 32 use %.1f%% of their lanes in the scan\n",
               100.0 * Points / N, 100.0 * Hits / std::max<uint64_t>(1, Points), Read.front(),
               Read.back(), Read[N / 2], Read[N * 9 / 10], Read[N * 99 / 100], double(Total) / N,
               100.0 * Total / (32.0 * WarpReads));
}

std::string answerText(const Answer &A) {
  return std::to_string(A.Count) + " keys from rank " + std::to_string(A.First) + ", sum " +
         std::to_string(A.Sum);
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"range",
                           "a range query (count and sum of the values of the keys in [lo, hi]) "
                           "per thread: descent of a static B+-tree over 2^24 keys, then a leaf "
                           "scan",
                           "queries", 1ull << 22, false, 1ull << 24};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const range::Table Table = range::generateTable(O.Seed);
  const range::Tree Tree = range::buildTree(Table);
  const std::vector<Query> Queries = range::generateQueries(Table, N, O.Seed);
  if (!O.Quiet)
    std::fprintf(stderr,
                 "range: %u keys in %zu leaves (%.0f MiB) under %u inner levels (%zu nodes, "
                 "%.1f MiB); %u queries\n",
                 range::KeyCount, Tree.Entries.size() / range::Fanout,
                 Tree.Entries.size() * sizeof(range::Entry) / 1048576.0, Tree.Height,
                 Tree.Inner.size() / range::Fanout, Tree.Inner.size() * 4 / 1048576.0, N);

  bench::DeviceBuffer<uint32_t> Inner(Tree.Inner);
  bench::DeviceBuffer<range::Entry> Entries(Tree.Entries);
  bench::DeviceBuffer<Query> DeviceQueries(Queries);
  bench::DeviceBuffer<Answer> Answers(N);
  const TreeView T{Inner.get(), Entries.get(), Tree.Height};
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)rangeAnswer);
    R.TimesMs = bench::timeLaunches(
        [&] { rangeAnswer<<<Grid, Block>>>(T, N, DeviceQueries.get(), Answers.get()); }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs(
        [&] { rangeWork<<<Grid, Block>>>(T, N, DeviceQueries.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)rangeAnswerSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          rangeAnswerSorted<<<Grid, Block>>>(T, N, Order, DeviceQueries.get(), Answers.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<Answer> Got = Answers.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(Answer));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "range: checking against the CPU reference\n");
    const std::vector<Answer> Want = range::referenceAnswers(Table, Queries);
    if (!O.Quiet)
      printWork(Queries, Want);
    for (uint32_t I = 0; I < N; ++I)
      if (Got[I].Sum != Want[I].Sum || Got[I].Count != Want[I].Count ||
          Got[I].First != Want[I].First)
        bench::requireMatch(false, "query " + std::to_string(I) + " [" +
                                       std::to_string(Queries[I].Lo) + ", " +
                                       std::to_string(Queries[I].Hi) + "]: GPU " +
                                       answerText(Got[I]) + ", CPU " + answerText(Want[I]));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
