// Conjunctive query evaluation in a search engine's inverted index, one
// two-term query per thread (1-D grid, 128 threads a block): the thread
// intersects the two terms' posting lists (ascending document ids, all lists
// in one CSR array built on the host; IsectIndex.h: 2^20 queries by default
// over a Zipf-distributed index of 262,144 terms) and writes the number of
// documents that hold both terms and a hash of the first few of them
// (IsectIntersect.h). Lists of similar length are merged; when one is at
// least 32 times the other, each entry of the short list gallops through
// the long one (exponential, then binary search), as real engines do.
// Divergence comes from the loops' trip counts: a query of two rare terms
// takes a few steps, a merge of two of the most common terms some 2,000,
// and query terms are drawn with popularity skew, so a warp's lanes mix the
// two and it waits for its longest merge. Memory-bound: a merge step is two
// 4-byte loads from the lane's own two lists (consecutive entries, but every
// lane on lines of its own, so a warp's load touches up to 32 lines) and a
// gallop step a gather from a data-dependent place of the long list, each
// waiting for the compare before it, against some ten integer instructions;
// the index (3.3 MB at the default size) stays in L2, but the lines the
// lanes stream (two of 128 bytes for each of an SM's 2,048 resident lanes,
// 512 KB) do not fit its L1.
//
// The result does not depend on thread grouping: thread Q writes only query
// Q's result.
//
// Hand-written regrouping: queries sorted by their exact loop steps (merge
// steps, or gallop entries, probes and binary-search steps), which a copy of
// the kernel counts with the same shared routine.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "IsectIndex.h"
#include "IsectIntersect.h"
#include "IsectReference.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using isect::Query;
using isect::Result;

static_assert(sizeof(Result) == 8, "a result is two 32-bit words, no padding");

// The lists are restrict parameters (not a struct's members) so that the
// compiler reads them through the read-only path.
__global__ void isectQueries(uint32_t N, const Query *__restrict__ Queries,
                             const uint32_t *__restrict__ ListStart,
                             const uint32_t *__restrict__ Postings, Result *__restrict__ Out) {
  uint32_t Q = blockIdx.x * blockDim.x + threadIdx.x;
  if (Q < N)
    Out[Q] = isect::intersectQuery(ListStart, Postings, Queries[Q]).Out;
}

// The hand-written copy: thread T evaluates query Order[T].
__global__ void isectQueriesSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                   const Query *__restrict__ Queries,
                                   const uint32_t *__restrict__ ListStart,
                                   const uint32_t *__restrict__ Postings,
                                   Result *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N) {
    const uint32_t Q = Order[T];
    Out[Q] = isect::intersectQuery(ListStart, Postings, Queries[Q]).Out;
  }
}

// The hand-written variant's key: the query's loop steps, from the same
// intersection (its result unused).
__global__ void isectLoopSteps(uint32_t N, const Query *__restrict__ Queries,
                               const uint32_t *__restrict__ ListStart,
                               const uint32_t *__restrict__ Postings, uint32_t *__restrict__ Keys) {
  uint32_t Q = blockIdx.x * blockDim.x + threadIdx.x;
  if (Q < N)
    Keys[Q] = isect::intersectQuery(ListStart, Postings, Queries[Q]).Steps;
}

namespace {

uint32_t longestList(const isect::Index &X) {
  uint32_t Longest = 0;
  for (uint32_t T = 0; T < X.terms(); ++T)
    Longest = std::max(Longest, X.length(T));
  return Longest;
}

bool gallops(const isect::Index &X, const Query &Q) {
  const uint32_t A = X.length(Q.First), B = X.length(Q.Second);
  return uint64_t(std::max(A, B)) >= uint64_t(isect::GallopRatio) * std::min(A, B);
}

// Loop steps per query (the key, exact), and how much of a warp (32
// consecutive queries) the loops keep busy: the steps over 32 times the sum
// of the warps' largest.
void printWork(const isect::Index &X) {
  const size_t N = X.Queries.size();
  std::vector<uint32_t> Steps(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t Q = Begin; Q < End; ++Q)
      Steps[Q] = isect::intersectQuery(X.ListStart.data(), X.Postings.data(), X.Queries[Q]).Steps;
  });
  double Total = 0, WarpSteps = 0;
  size_t Galloping = 0;
  for (size_t W = 0; W < N; W += 32) {
    const size_t Lanes = std::min<size_t>(32, N - W);
    const uint32_t WarpMax = *std::max_element(Steps.begin() + W, Steps.begin() + W + Lanes);
    for (size_t Q = W; Q < W + Lanes; ++Q) {
      Total += Steps[Q];
      Galloping += gallops(X, X.Queries[Q]);
    }
    WarpSteps += double(Lanes) * WarpMax;
  }
  std::vector<uint32_t> Sorted(Steps);
  std::nth_element(Sorted.begin(), Sorted.begin() + N / 2, Sorted.end());
  std::fprintf(stderr,
               "isect: %.1f loop steps per query (median %u, at most %u), %.1f%% of the queries "
               "gallop; warps of 32 use %.0f%% of their lanes\n",
               Total / N, Sorted[N / 2], *std::max_element(Steps.begin(), Steps.end()),
               100.0 * Galloping / N, 100 * Total / WarpSteps);
}

} // namespace

int main(int argc, char **argv) {
  // N documents and N / 4 terms: ~0.8 postings a query, 32-bit offsets reach
  // far beyond MaxSize.
  const bench::AppInfo App{"isect",
                           "conjunctive two-term queries: a query per thread intersects two "
                           "posting lists of a Zipf index (merge or galloping)",
                           "queries", 1ull << 20, false, 1ull << 25};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const isect::Index Index = isect::generate(N, O.Seed);
  if (!O.Quiet)
    std::fprintf(stderr,
                 "isect: %u queries, %u terms over %u documents, %zu postings (lists of up to "
                 "%u)\n",
                 N, Index.terms(), Index.Documents, Index.Postings.size(), longestList(Index));

  bench::DeviceBuffer<Query> Queries(Index.Queries);
  bench::DeviceBuffer<uint32_t> ListStart(Index.ListStart), Postings(Index.Postings);
  bench::DeviceBuffer<Result> Out(N);
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)isectQueries);
    R.TimesMs = bench::timeLaunches(
        [&] {
          isectQueries<<<Grid, Block>>>(N, Queries.get(), ListStart.get(), Postings.get(),
                                        Out.get());
        },
        O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs([&] {
      isectLoopSteps<<<Grid, Block>>>(N, Queries.get(), ListStart.get(), Postings.get(),
                                      Keys.get());
    });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)isectQueriesSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          isectQueriesSorted<<<Grid, Block>>>(N, Order, Queries.get(), ListStart.get(),
                                              Postings.get(), Out.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<Result> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(Result));

  if (O.Check) {
    if (!O.Quiet) {
      std::fprintf(stderr, "isect: checking against the CPU reference\n");
      printWork(Index);
    }
    const uint32_t Malformed = isect::firstMalformedList(Index);
    if (Malformed != Index.terms())
      bench::requireMatch(false, "the list of term " + std::to_string(Malformed) +
                                     " is not strictly ascending below the document count");
    const std::vector<Result> Want = isect::referenceResults(Index);
    for (uint32_t Q = 0; Q < N; ++Q)
      if (Got[Q].Count != Want[Q].Count || Got[Q].Hash != Want[Q].Hash) {
        const Query &Terms = Index.Queries[Q];
        bench::requireMatch(
            false, "query " + std::to_string(Q) + " (terms " + std::to_string(Terms.First) +
                       " and " + std::to_string(Terms.Second) + ", lists of " +
                       std::to_string(Index.length(Terms.First)) + " and " +
                       std::to_string(Index.length(Terms.Second)) + "): GPU " +
                       std::to_string(Got[Q].Count) + " documents, hash " +
                       std::to_string(Got[Q].Hash) + "; CPU " + std::to_string(Want[Q].Count) +
                       " documents, hash " + std::to_string(Want[Q].Hash));
      }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
