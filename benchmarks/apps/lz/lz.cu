// The match finder of an LZ77 compressor (deflate as gzip -6 runs it), run
// in parallel over every position of a buffer as GPU compressors do, one
// thread per position (1-D grid, 128 threads a block): the thread walks the
// position's hash chain (LzChains.h: the previous position with the same
// 3-byte hash, built on the host in one pass) towards the past, at most 128
// candidates within the 32 KiB window, compares bytes at each candidate that
// can still beat its best (LzMatch.h) and writes the longest match's length
// and distance. The input (LzText.h, 16 MiB by default) mixes prose, log
// lines, binary records, runs and random bytes in regions of 1 to 256 KiB.
// Divergence comes from the chains (0 to 1 candidates in random data, the
// cap for text's common 3-grams, cut short by a nice match in runs) and from
// how far each comparison runs. Memory-bound: every step is a dependent
// gather from Prev and byte loads at a far candidate, each lane its own.
//
// Hand-written regrouping: positions sorted by their chain's length within
// the window (capped), which a small kernel counts by walking Prev alone.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "LzChains.h"
#include "LzMatch.h"
#include "LzReference.h"
#include "LzText.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

namespace lz {

struct DeviceText {
  uint32_t Size;
  const uint32_t *Words; // packWords: the bytes, then two zero words
  const uint32_t *Prev;
};

// Position Pos's match goes to Out[Pos].
__device__ inline void storeMatch(const DeviceText &D, uint32_t Pos, Match *Out) {
  Out[Pos] = longestMatch(D.Words, D.Size, D.Prev, Pos);
}

} // namespace lz

using lz::DeviceText;
using lz::Match;

__global__ void lzLongestMatches(DeviceText D, Match *__restrict__ Out) {
  uint32_t Pos = blockIdx.x * blockDim.x + threadIdx.x;
  if (Pos < D.Size)
    lz::storeMatch(D, Pos, Out);
}

// The hand-written copy: thread T finds the match of position Order[T].
__global__ void lzLongestMatchesSorted(DeviceText D, const uint32_t *__restrict__ Order,
                                       Match *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < D.Size)
    lz::storeMatch(D, Order[T], Out);
}

__global__ void lzChainLengths(DeviceText D, uint32_t *__restrict__ Keys) {
  uint32_t Pos = blockIdx.x * blockDim.x + threadIdx.x;
  if (Pos < D.Size)
    Keys[Pos] = lz::chainLength(D.Prev, Pos);
}

namespace {

const char *kindName(lz::RegionKind Kind) {
  static const char *const Names[] = {"prose", "logs", "random", "records", "fill"};
  return Names[static_cast<int>(Kind)];
}

// The buffer's mix: each kind's share of the bytes.
void printText(const lz::Text &In) {
  uint64_t Bytes[std::size(lz::KindShares)] = {};
  for (const lz::Region &G : In.Regions)
    Bytes[static_cast<int>(G.Kind)] += G.Length;
  std::string Mix;
  for (const lz::KindShare &S : lz::KindShares) {
    char Part[48];
    std::snprintf(Part, sizeof Part, "%s%s %.1f%%", Mix.empty() ? "" : ", ", kindName(S.Kind),
                  100.0 * double(Bytes[static_cast<int>(S.Kind)]) / double(In.Bytes.size()));
    Mix += Part;
  }
  std::fprintf(stderr, "lz: %zu bytes in %zu regions (%s)\n", In.Bytes.size(), In.Regions.size(),
               Mix.c_str());
}

// Candidates per position (the reference counts them as the kernel's chain
// loop does), and how much of a warp (32 consecutive positions) the chain
// loop keeps busy: the candidates over 32 times the sum of the warps' most.
void printChains(const lz::Reference &Want) {
  const uint32_t N = uint32_t(Want.Visited.size());
  uint64_t Sum = 0, WarpSum = 0, Matched = 0;
  for (uint32_t W = 0; W < N; W += 32) {
    const uint32_t Lanes = std::min(32u, N - W);
    uint32_t WarpMax = 0;
    for (uint32_t P = W; P < W + Lanes; ++P) {
      Sum += Want.Visited[P];
      WarpMax = std::max<uint32_t>(WarpMax, Want.Visited[P]);
      Matched += Want.Matches[P].Length != 0;
    }
    WarpSum += uint64_t(Lanes) * WarpMax;
  }
  std::fprintf(stderr,
               "lz: %.1f candidates per position, %.1f%% of positions matched; warps of 32 use "
               "%.0f%% of their lanes in the chain loop\n",
               double(Sum) / N, 100.0 * double(Matched) / N,
               WarpSum ? 100.0 * double(Sum) / double(WarpSum) : 100.0);
}

std::string matchText(const Match &M) {
  return std::to_string(M.Length) + " bytes at distance " + std::to_string(M.Distance);
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"lz",
                           "LZ77 match finding (deflate -6's hash chains): a position per thread "
                           "walks up to 128 candidates in a 32 KiB window for its longest match",
                           "bytes", 1ull << 24, false, 1ull << 28};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const lz::Text In = lz::generate(N, O.Seed);
  const std::vector<uint32_t> Prev = lz::buildPrev(In.Bytes);
  if (!O.Quiet)
    printText(In);

  bench::DeviceBuffer<uint32_t> Words(lz::packWords(In.Bytes)), DevicePrev(Prev);
  bench::DeviceBuffer<Match> Out(N);
  const DeviceText D{N, Words.get(), DevicePrev.get()};
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;

  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)lzLongestMatches);
    R.TimesMs = bench::timeLaunches([&] { lzLongestMatches<<<Grid, Block>>>(D, Out.get()); },
                                    O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs([&] { lzChainLengths<<<Grid, Block>>>(D, Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)lzLongestMatchesSorted);
    R.TimesMs = bench::timeLaunches(
        [&] { lzLongestMatchesSorted<<<Grid, Block>>>(D, Order, Out.get()); }, O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<Match> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(Match));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "lz: checking against the CPU reference\n");
    const lz::Reference Want = lz::referenceMatches(In.Bytes);
    if (!O.Quiet)
      printChains(Want);
    for (uint32_t P = 0; P < N; ++P)
      if (std::memcmp(&Got[P], &Want.Matches[P], sizeof(Match)) != 0)
        bench::requireMatch(false, "position " + std::to_string(P) + ": GPU " +
                                       matchText(Got[P]) + ", CPU " +
                                       matchText(Want.Matches[P]));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
