// Small per-thread sorts, as in the resolve pass of order-independent
// transparency with a k-buffer (and as in per-cell particle sorting or
// per-query top-k candidate lists): a thread per pixel (1-D grid, 128
// threads a block) sorts the pixel's fragment list by depth, 1 to 64
// fragments in a fixed slot of 64 (KBufferLists.h: 2^20 lists by default,
// counts heavy-tailed, median 3 to 4, mean 9.9), by insertion sort into the
// pixel's slot of an output array of the same layout, then writes the
// median depth and a hash of the sorted list (KBufferSort.h). Divergence comes from the
// inversions the sort must undo, about Count^2 / 4 for a list drawn in
// random order, Count^2 / 2 for one drawn back to front, nearly none for one
// drawn front to back: a warp waits for its longest, most disordered list.
// Memory-bound: a shift is one 8-byte load and one 8-byte store in the
// thread's own 512-byte slot against 7 other instructions, and the lanes
// of a warp are 512 bytes apart, so each lane's access is a line of its own;
// the loads mostly hit L1 while few lanes are left, but every store is
// written through to L2.
//
// Hand-written regrouping: pixels sorted by their fragment count, which an
// expert knows before the sort (its square, the random-order cost, orders
// them the same); how disordered a list is cannot be known without reading
// it.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "../common/WarpSteps.h"
#include "../common/ParallelFor.h"
#include "KBufferLists.h"
#include "KBufferReference.h"
#include "KBufferSort.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

namespace ksort {

// List L is sorted into its slot of Sorted; its median depth goes to
// MedianDepth[L], its hash to Hash[L].
__device__ inline void resolvePixel(const Fragment *Arrived, const uint32_t *Counts, uint32_t L,
                                    Fragment *Sorted, uint32_t *MedianDepth, uint64_t *Hash) {
  const ListSummary S = sortList(Arrived, Sorted, Counts[L], L);
  MedianDepth[L] = S.MedianDepth;
  Hash[L] = S.Hash;
}

} // namespace ksort

using ksort::Fragment;

__global__ void ksortResolve(uint32_t N, const Fragment *__restrict__ Arrived,
                             const uint32_t *__restrict__ Counts, Fragment *__restrict__ Sorted,
                             uint32_t *__restrict__ MedianDepth, uint64_t *__restrict__ Hash) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    ksort::resolvePixel(Arrived, Counts, T, Sorted, MedianDepth, Hash);
}

// The hand-written copy: thread T resolves pixel Order[T].
__global__ void ksortResolveSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                   const Fragment *__restrict__ Arrived,
                                   const uint32_t *__restrict__ Counts,
                                   Fragment *__restrict__ Sorted,
                                   uint32_t *__restrict__ MedianDepth,
                                   uint64_t *__restrict__ Hash) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    ksort::resolvePixel(Arrived, Counts, Order[T], Sorted, MedianDepth, Hash);
}

__global__ void fragmentCounts(uint32_t N, const uint32_t *__restrict__ Counts,
                               uint32_t *__restrict__ Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Keys[T] = Counts[T];
}

namespace {

// Fragments and sort steps per list (a step is a fragment read or a shift;
// the shifts are the list's inversions), and how much of a warp the sort
// keeps busy: all steps over 32 times the warps' longest, in pixel order and
// in the hand-written key's order.
void printWork(const ksort::Lists &In) {
  const uint32_t N = In.count();
  std::vector<uint32_t> Steps(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t L = Begin; L < End; ++L) {
      const Fragment *F = In.Fragments.data() + L * ksort::Capacity;
      uint32_t Inversions = 0;
      for (uint32_t I = 0; I < In.Counts[L]; ++I)
        for (uint32_t J = I + 1; J < In.Counts[L]; ++J)
          Inversions += F[I].Depth > F[J].Depth;
      Steps[L] = In.Counts[L] + Inversions;
    }
  });
  uint64_t Total = 0, Fragments = 0;
  for (uint32_t L = 0; L < N; ++L) {
    Total += Steps[L];
    Fragments += In.Counts[L];
  }
  const uint64_t PixelOrder = bench::warpSteps(Steps);
  std::vector<uint32_t> ByCount(N);
  for (uint32_t L = 0; L < N; ++L)
    ByCount[L] = L;
  std::stable_sort(ByCount.begin(), ByCount.end(),
                   [&](uint32_t A, uint32_t B) { return In.Counts[A] > In.Counts[B]; });
  for (uint32_t &L : ByCount)
    L = Steps[L];
  const uint64_t KeyOrder = bench::warpSteps(ByCount);
  std::sort(Steps.begin(), Steps.end());
  std::fprintf(stderr,
               "ksort: %u lists, %.2f fragments per list; %u to %u sort steps per list (median "
               "%u, mean %.1f); warps of 32 use %.1f%% of their lanes (%.1f%% sorted by count)\n",
               N, double(Fragments) / N, Steps.front(), Steps.back(), Steps[N / 2],
               double(Total) / N, 100.0 * Total / (32.0 * PixelOrder),
               100.0 * Total / (32.0 * KeyOrder));
}

} // namespace

int main(int argc, char **argv) {
  // 512 bytes of input and 524 of output per list: 2^23 lists take 8.6 GB
  // on the device.
  const bench::AppInfo App{"ksort",
                           "k-buffer resolve: insertion sort of a pixel's 1 to 64 fragments by "
                           "depth in its own slot, a pixel per thread",
                           "lists", 1ull << 20, false, 1ull << 23};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const ksort::Lists In = ksort::generateLists(N, O.Seed);
  if (!O.Quiet)
    printWork(In);

  bench::DeviceBuffer<Fragment> Arrived(In.Fragments), Sorted(In.Fragments.size());
  bench::DeviceBuffer<uint32_t> Counts(In.Counts), MedianDepth(N);
  bench::DeviceBuffer<uint64_t> Hash(N);
  // The kernels write only a list's first Count entries: the tails stay zero.
  const size_t SortedBytes = In.Fragments.size() * sizeof(Fragment);
  BENCH_CUDA(cudaMemset(Sorted.get(), 0, SortedBytes));
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;

  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)ksortResolve);
    R.TimesMs = bench::timeLaunches(
        [&] {
          ksortResolve<<<Grid, Block>>>(N, Arrived.get(), Counts.get(), Sorted.get(),
                                        MedianDepth.get(), Hash.get());
        },
        O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs =
        bench::timeOnceMs([&] { fragmentCounts<<<Grid, Block>>>(N, Counts.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)ksortResolveSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          ksortResolveSorted<<<Grid, Block>>>(N, Order, Arrived.get(), Counts.get(), Sorted.get(),
                                              MedianDepth.get(), Hash.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  // The checksum covers the sorted slots, then the median depths, then the
  // hashes: downloaded into one buffer, which the check reads too.
  const size_t MedianBytes = size_t(N) * sizeof(uint32_t);
  std::vector<unsigned char> Bytes(SortedBytes + MedianBytes + size_t(N) * sizeof(uint64_t));
  BENCH_CUDA(cudaMemcpy(Bytes.data(), Sorted.get(), SortedBytes, cudaMemcpyDeviceToHost));
  BENCH_CUDA(cudaMemcpy(Bytes.data() + SortedBytes, MedianDepth.get(), MedianBytes,
                        cudaMemcpyDeviceToHost));
  BENCH_CUDA(cudaMemcpy(Bytes.data() + SortedBytes + MedianBytes, Hash.get(),
                        size_t(N) * sizeof(uint64_t), cudaMemcpyDeviceToHost));
  R.Checksum = bench::fnv1a64(Bytes.data(), Bytes.size());

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "ksort: checking against the CPU reference\n");
    const ksort::Resolved Want = ksort::referenceResolve(In);
    const size_t SlotBytes = ksort::Capacity * sizeof(Fragment);
    for (uint32_t L = 0; L < N; ++L) {
      uint32_t GotMedian;
      uint64_t GotHash;
      std::memcpy(&GotMedian, Bytes.data() + SortedBytes + size_t(L) * sizeof(uint32_t),
                  sizeof GotMedian);
      std::memcpy(&GotHash, Bytes.data() + SortedBytes + MedianBytes + size_t(L) * sizeof(uint64_t),
                  sizeof GotHash);
      const bool SlotEqual = std::memcmp(Bytes.data() + L * SlotBytes,
                                         Want.Sorted.data() + size_t(L) * ksort::Capacity,
                                         SlotBytes) == 0;
      if (!SlotEqual || GotMedian != Want.MedianDepth[L] || GotHash != Want.Hash[L]) {
        char Message[200];
        std::snprintf(Message, sizeof Message,
                      "list %u (%u fragments): GPU sorted slot %s the CPU's, median depth %u, "
                      "hash %016" PRIx64 "; CPU median depth %u, hash %016" PRIx64,
                      L, In.Counts[L], SlotEqual ? "equal to" : "unlike", GotMedian, GotHash,
                      Want.MedianDepth[L], Want.Hash[L]);
        bench::requireMatch(false, Message);
      }
    }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
