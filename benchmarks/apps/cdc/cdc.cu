// Content-defined chunking for deduplication, as backup tools and dedup
// stores (restic, borg, FastCDC-based stores) cut a stream into chunks: the
// stream (CdcInput.h: 512 MiB by default, of random content, database pages
// with zero tails, zero fill and short repeated patterns) is split into
// 512-byte segments, and one thread per segment (1-D grid, 128 threads a
// block), as a parallel chunker's first phase, rolls a gear hash
// (h = 2 h + Gear[byte], a 256-entry table drawn from the seed) from its
// segment's start to the first byte where h & Mask == 0 once the chunk holds
// 64 bytes, or to 4096 bytes (CdcScan.h); it writes that first cut's offset
// and a 64-bit fingerprint of the chunk's bytes. Divergence comes from the
// data: on random content the cut comes after 64 bytes plus a geometric
// length of mean 512, so a warp waits for its longest of 32 draws, and in
// zero runs and most repeated patterns the hash never cuts and the thread
// runs to the 4096-byte maximum (64 to 4096 bytes a segment, median ~450).
// Memory-bound: a thread reads its own bytes, one aligned 8-byte load per 8
// bytes, and every byte is a gather from the 2 KiB gear table (16 cache lines,
// 5.6 distinct ones per warp instruction in segment order, 12 in full
// warps), against a dozen integer instructions (64-bit shift, add and mask,
// compares): the L1's line lookups bound it.
//
// Hand-written regrouping: segments sorted by the bytes their scan reads,
// exactly: a key kernel runs the same scan for its length alone, so computing
// the key costs about a launch.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "../common/WarpSteps.h"
#include "CdcGear.h"
#include "CdcInput.h"
#include "CdcReference.h"
#include "CdcScan.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace cdc {

// Segment I's first cut: its length to Lengths[I], its fingerprint to
// Fingerprints[I].
__device__ inline void storeCut(const uint64_t *Gear, const uint64_t *Words, uint32_t N,
                                uint32_t I, uint32_t *Lengths, uint64_t *Fingerprints) {
  const Cut C = firstCut(Gear, Words, N, I);
  Lengths[I] = C.Length;
  Fingerprints[I] = C.Fingerprint;
}

} // namespace cdc

__global__ void cdcFirstCut(const uint64_t *__restrict__ Gear, const uint64_t *__restrict__ Words,
                            uint32_t N, uint32_t *__restrict__ Lengths,
                            uint64_t *__restrict__ Fingerprints) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    cdc::storeCut(Gear, Words, N, I, Lengths, Fingerprints);
}

// The hand-written copy: thread T chunks segment Order[T].
__global__ void cdcFirstCutSorted(const uint64_t *__restrict__ Gear,
                                  const uint64_t *__restrict__ Words, uint32_t N,
                                  const uint32_t *__restrict__ Order,
                                  uint32_t *__restrict__ Lengths,
                                  uint64_t *__restrict__ Fingerprints) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    cdc::storeCut(Gear, Words, N, Order[T], Lengths, Fingerprints);
}

// The key: the bytes the segment's scan reads, the same scan without the
// fingerprint.
__global__ void cdcScanLength(const uint64_t *__restrict__ Gear,
                              const uint64_t *__restrict__ Words, uint32_t N,
                              uint32_t *__restrict__ Keys) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Keys[I] = cdc::firstCut(Gear, Words, N, I).Length;
}

namespace {

// Bytes scanned per segment (the cut's offset), and how much of a warp (32
// consecutive segments) the scan keeps busy: all bytes over 32 times the
// warps' longest scans.
void printScans(const std::vector<uint32_t> &Lengths) {
  const size_t N = Lengths.size();
  uint64_t Total = 0, AtMax = 0;
  for (uint32_t L : Lengths) {
    Total += L;
    AtMax += L == cdc::MaxBytes;
  }
  const uint64_t Steps = bench::warpSteps(Lengths);
  std::vector<uint32_t> Sorted = Lengths;
  std::sort(Sorted.begin(), Sorted.end());
  std::fprintf(stderr,
               "cdc: %u to %u bytes scanned per segment (median %u, mean %.1f, 90th percentile "
               "%u; %.1f%% at the %u-byte maximum); warps of 32 use %.1f%% of their lanes\n",
               Sorted.front(), Sorted.back(), Sorted[N / 2], double(Total) / N,
               Sorted[N / 10 * 9], 100.0 * AtMax / N, cdc::MaxBytes,
               100.0 * Total / (32.0 * Steps));
}

} // namespace

int main(int argc, char **argv) {
  // At MaxSize the stream is 8 GiB (2^30 words; offsets are 64-bit anyway).
  const bench::AppInfo App{"cdc",
                           "gear-hash content-defined chunking: the first cut (64 to 4096 "
                           "bytes) and chunk fingerprint of one 512-byte segment per thread",
                           "segments", 1ull << 20, false, 1ull << 24};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const std::vector<uint64_t> Gear = cdc::generateGear(O.Seed);
  const cdc::Stream In = cdc::generateStream(N, O.Seed);
  if (!O.Quiet)
    std::fprintf(stderr, "cdc: %u segments of %u bytes (%.0f MiB), %zu regions\n", N,
                 cdc::SegmentBytes, In.Words.size() * 8 / 1048576.0, In.Regions.size());

  bench::DeviceBuffer<uint64_t> DeviceGear(Gear), Words(In.Words), Fingerprints(N);
  bench::DeviceBuffer<uint32_t> Lengths(N);
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)cdcFirstCut);
    R.TimesMs = bench::timeLaunches(
        [&] {
          cdcFirstCut<<<Grid, Block>>>(DeviceGear.get(), Words.get(), N, Lengths.get(),
                                       Fingerprints.get());
        },
        O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs(
        [&] { cdcScanLength<<<Grid, Block>>>(DeviceGear.get(), Words.get(), N, Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)cdcFirstCutSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          cdcFirstCutSorted<<<Grid, Block>>>(DeviceGear.get(), Words.get(), N, Order,
                                             Lengths.get(), Fingerprints.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  // The checksum covers the lengths, then the fingerprints: downloaded into
  // one buffer.
  const size_t LengthBytes = size_t(N) * sizeof(uint32_t);
  const size_t FingerprintBytes = size_t(N) * sizeof(uint64_t);
  std::vector<unsigned char> Bytes(LengthBytes + FingerprintBytes);
  BENCH_CUDA(cudaMemcpy(Bytes.data(), Lengths.get(), LengthBytes, cudaMemcpyDeviceToHost));
  BENCH_CUDA(cudaMemcpy(Bytes.data() + LengthBytes, Fingerprints.get(), FingerprintBytes,
                        cudaMemcpyDeviceToHost));
  R.Checksum = bench::fnv1a64(Bytes.data(), Bytes.size());

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "cdc: checking against the CPU reference\n");
    const cdc::Chunks Want = cdc::referenceChunks(Gear, In.Words);
    if (!O.Quiet)
      printScans(Want.Lengths);
    std::vector<uint32_t> GotLengths(N);
    std::vector<uint64_t> GotFingerprints(N);
    std::memcpy(GotLengths.data(), Bytes.data(), LengthBytes);
    std::memcpy(GotFingerprints.data(), Bytes.data() + LengthBytes, FingerprintBytes);
    for (uint32_t I = 0; I < N; ++I) {
      if (GotLengths[I] != Want.Lengths[I])
        bench::requireMatch(false, "segment " + std::to_string(I) + ": GPU cut after " +
                                       std::to_string(GotLengths[I]) + " bytes, CPU " +
                                       std::to_string(Want.Lengths[I]));
      if (GotFingerprints[I] != Want.Fingerprints[I]) {
        char Text[64];
        std::snprintf(Text, sizeof Text, "%016" PRIx64 ", CPU %016" PRIx64, GotFingerprints[I],
                      Want.Fingerprints[I]);
        bench::requireMatch(false, "segment " + std::to_string(I) + ": GPU fingerprint " + Text);
      }
    }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
