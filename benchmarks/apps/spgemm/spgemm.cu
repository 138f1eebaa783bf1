// The symbolic phase of sparse matrix-matrix multiplication C = A B in CSR
// form, as cuSPARSE's csrgemm / SpGEMM and algebraic multigrid setup (the
// Galerkin product) run it before allocating C: one thread per row I of A
// counts the entries of row I of C, the distinct columns in the union of the
// rows of B that row I of A references, by a k-way merge of those sorted
// rows with a min-heap in a local array (SpgemmCount.h; the heap method of
// merge-based SpGEMM codes for one row per thread). The operands
// (SpgemmInput.h: 2^21 rows by default) have power-law row lengths (most 2
// to 8, a few up to 256) and local columns: a thread merges as many entries
// as its referenced rows of B hold, a few dozen for most rows, thousands for
// a long row of A or one that references long rows of B, and a warp waits
// for its slowest lane. Memory-bound: every merged entry gathers a column of
// B at a data-dependent address and sifts the heap down through local
// memory.
//
// The result does not depend on thread grouping: thread I writes only row
// I's count.
//
// Hand-written regrouping: rows sorted by the entries their merge pops, the
// sum of their referenced rows' lengths (the binning key of real SpGEMM
// codes), from a small kernel that reads B's row offsets.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "SpgemmCount.h"
#include "SpgemmInput.h"
#include "SpgemmReference.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

// The operands are restrict parameters (not a struct's members) so that the
// compiler reads them through the read-only path.
__global__ void spgemmRowLengths(uint32_t N, const uint32_t *__restrict__ ARowStart,
                                 const uint32_t *__restrict__ AColumn,
                                 const uint32_t *__restrict__ BRowStart,
                                 const uint32_t *__restrict__ BColumn,
                                 uint32_t *__restrict__ Out) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = spgemm::productRowLength(ARowStart, AColumn, BRowStart, BColumn, I);
}

// The hand-written copy: thread T counts row Order[T].
__global__ void spgemmRowLengthsSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                       const uint32_t *__restrict__ ARowStart,
                                       const uint32_t *__restrict__ AColumn,
                                       const uint32_t *__restrict__ BRowStart,
                                       const uint32_t *__restrict__ BColumn,
                                       uint32_t *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N) {
    const uint32_t I = Order[T];
    Out[I] = spgemm::productRowLength(ARowStart, AColumn, BRowStart, BColumn, I);
  }
}

__global__ void spgemmMergedEntries(uint32_t N, const uint32_t *__restrict__ ARowStart,
                                    const uint32_t *__restrict__ AColumn,
                                    const uint32_t *__restrict__ BRowStart,
                                    uint32_t *__restrict__ Keys) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Keys[I] = spgemm::mergedEntries(ARowStart, AColumn, BRowStart, I);
}

namespace {

// The operands, and how much of a warp (32 consecutive rows) the merges keep
// busy: merged entries / (32 x the sum over warps of their largest count).
// Sift-downs make the longest merges costlier still (log2 of the heap a
// level each), which this share leaves out.
void printOperands(const spgemm::Operands &M) {
  const uint32_t N = M.A.rows();
  std::vector<uint32_t> Entries(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      Entries[I] = spgemm::mergedEntries(M.A.RowStart.data(), M.A.Column.data(),
                                         M.B.RowStart.data(), uint32_t(I));
  });
  uint64_t Total = 0, WarpMaxima = 0;
  uint32_t Max = 0;
  for (uint32_t W = 0; W < N; W += 32) {
    uint32_t WarpMax = 0;
    for (uint32_t I = W; I < std::min(N, W + 32); ++I) {
      Total += Entries[I];
      WarpMax = std::max(WarpMax, Entries[I]);
    }
    WarpMaxima += WarpMax;
    Max = std::max(Max, WarpMax);
  }
  std::fprintf(stderr,
               "spgemm: %u x %u operands, %zu and %zu entries (%.2f and %.2f a row); merged "
               "entries %.1f a row (at most %u): warps of 32 use %.1f%% of their lanes\n",
               N, N, M.A.Column.size(), M.B.Column.size(), double(M.A.Column.size()) / N,
               double(M.B.Column.size()) / N, double(Total) / N, Max,
               WarpMaxima ? 100.0 * Total / (32.0 * WarpMaxima) : 100.0);
}

} // namespace

int main(int argc, char **argv) {
  // ~5.2 entries a row: 32-bit offsets reach well beyond MaxSize.
  const bench::AppInfo App{"spgemm",
                           "symbolic SpGEMM: entries per row of C = A B by a heap merge of "
                           "B's rows, a row per thread, power-law rows",
                           "rows", 1ull << 21, false, 1ull << 24};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const spgemm::Operands M = spgemm::generate(N, O.Seed);
  if (!O.Quiet)
    printOperands(M);

  bench::DeviceBuffer<uint32_t> ARowStart(M.A.RowStart), AColumn(M.A.Column);
  bench::DeviceBuffer<uint32_t> BRowStart(M.B.RowStart), BColumn(M.B.Column), Out(N);
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)spgemmRowLengths);
    R.TimesMs = bench::timeLaunches(
        [&] {
          spgemmRowLengths<<<Grid, Block>>>(N, ARowStart.get(), AColumn.get(), BRowStart.get(),
                                            BColumn.get(), Out.get());
        },
        O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs([&] {
      spgemmMergedEntries<<<Grid, Block>>>(N, ARowStart.get(), AColumn.get(), BRowStart.get(),
                                           Keys.get());
    });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)spgemmRowLengthsSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          spgemmRowLengthsSorted<<<Grid, Block>>>(N, Order, ARowStart.get(), AColumn.get(),
                                                  BRowStart.get(), BColumn.get(), Out.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<uint32_t> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(uint32_t));

  if (O.Check) {
    const std::vector<uint32_t> Want = spgemm::referenceRowLengths(M);
    uint64_t Entries = 0;
    for (uint32_t I = 0; I < N; ++I) {
      if (Got[I] != Want[I])
        bench::requireMatch(false, "entries in row " + std::to_string(I) + " of C (" +
                                       std::to_string(M.A.length(I)) +
                                       " entries in row of A): GPU " + std::to_string(Got[I]) +
                                       ", CPU " + std::to_string(Want[I]));
      Entries += Want[I];
    }
    if (!O.Quiet)
      std::fprintf(stderr, "spgemm: C has %llu entries, as the CPU reference counts them\n",
                   (unsigned long long)Entries);
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
