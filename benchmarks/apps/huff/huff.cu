// Block-parallel Huffman decoding, the decode stage of a block-compressed
// format (GPU deflate, JPEG and zstd literal decoders): a thread decodes
// one independently coded block of a shared bit stream (HuffBlocks.h: 2^20
// blocks by default, Zipf-like bytes under one canonical code of at most 11
// bits), from its byte offset in the container's index until the block's
// symbol count is reached, with a 64-bit bit buffer refilled by 32-bit word
// loads and one lookup per symbol in a 2^11-entry table of (symbol, length)
// in global memory (HuffDecode.h). It writes the block's hash of the
// decoded symbols and the bits its codes took, not the symbols themselves.
// Divergence: block sizes are heavy-tailed (16 to 8192 symbols, median 32,
// mean 116), so a warp waits for its largest block: warps use 7% of their
// lanes. Compute-bound in block order: a symbol is ~28 SASS instructions
// (the refill predicated) against one 2-byte gather from a 4 KB table that
// stays in L1 and a word load every ~6 symbols; a warp-step has ~2 active
// lanes, which touch ~2 lines. Sorted, full warps' gathers touch ~20 of the
// table's 32 lines, so the L1 rather than issue may then bound it (see the
// README).
//
// Hand-written regrouping: blocks sorted by their symbol count (the exact
// trip count), which a small kernel reads off the container's index.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "HuffBlocks.h"
#include "HuffCode.h"
#include "HuffDecode.h"
#include "HuffReference.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

namespace huff {

// Block I's hash goes to Hash[I], the bits its codes took to Bits[I].
__device__ inline void decodeOne(const uint32_t *Words, const uint32_t *ByteStart,
                                 const uint32_t *Symbols, const uint16_t *Table, uint32_t I,
                                 uint64_t *Hash, uint32_t *Bits) {
  const BlockSummary S = decodeBlock(Words, Table, ByteStart[I], Symbols[I]);
  Hash[I] = S.Hash;
  Bits[I] = S.Bits;
}

} // namespace huff

__global__ void huffDecodeBlocks(uint32_t N, const uint32_t *__restrict__ Words,
                                 const uint32_t *__restrict__ ByteStart,
                                 const uint32_t *__restrict__ Symbols,
                                 const uint16_t *__restrict__ Table, uint64_t *__restrict__ Hash,
                                 uint32_t *__restrict__ Bits) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    huff::decodeOne(Words, ByteStart, Symbols, Table, T, Hash, Bits);
}

// The hand-written copy: thread T decodes block Order[T].
__global__ void huffDecodeBlocksSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                       const uint32_t *__restrict__ Words,
                                       const uint32_t *__restrict__ ByteStart,
                                       const uint32_t *__restrict__ Symbols,
                                       const uint16_t *__restrict__ Table,
                                       uint64_t *__restrict__ Hash, uint32_t *__restrict__ Bits) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    huff::decodeOne(Words, ByteStart, Symbols, Table, Order[T], Hash, Bits);
}

__global__ void blockSymbolCounts(uint32_t N, const uint32_t *__restrict__ Symbols,
                                  uint32_t *__restrict__ Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Keys[T] = Symbols[T];
}

namespace {

// Symbols per block, and how much of a warp (32 consecutive blocks) the
// symbol loop keeps busy: all blocks' symbols over 32 times the sum of the
// warps' largest blocks.
void printBlocks(const huff::Container &C) {
  const uint32_t N = C.count();
  std::vector<uint32_t> Counts(C.Symbols);
  uint64_t Symbols = 0, WarpSteps = 0;
  for (uint32_t W = 0; W < N; W += 32) {
    uint32_t Max = 0;
    for (uint32_t I = W; I < std::min(N, W + 32); ++I) {
      Symbols += C.Symbols[I];
      Max = std::max(Max, C.Symbols[I]);
    }
    WarpSteps += Max;
  }
  std::sort(Counts.begin(), Counts.end());
  const auto [Shortest, Longest] = std::minmax_element(C.CodeLength.begin(), C.CodeLength.end());
  std::fprintf(stderr,
               "huff: %u blocks, %.1f MB of stream, codes of %u to %u bits (%.2f bits a "
               "symbol, padding included); %u to %u symbols a block (median %u, mean "
               "%.1f); warps of 32 use %.1f%% of their lanes\n",
               N, C.ByteStart[N] / 1e6, unsigned(*Shortest), unsigned(*Longest),
               8.0 * C.ByteStart[N] / Symbols, Counts.front(), Counts.back(), Counts[N / 2],
               double(Symbols) / N, 100.0 * Symbols / (32.0 * WarpSteps));
}

} // namespace

int main(int argc, char **argv) {
  // 2^24 blocks hold ~1.3 GB of stream on average (at most 8192 symbols of
  // 11 bits a block: generateContainer checks the 32-bit offsets).
  const bench::AppInfo App{"huff",
                           "canonical Huffman decoding of independent blocks (16 to 8192 "
                           "symbols, heavy-tailed) by table lookup, a block per thread",
                           "blocks", 1ull << 20, true, 1ull << 24};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const huff::Container In = huff::generateContainer(N, O.Seed);
  if (!O.Quiet)
    printBlocks(In);

  bench::DeviceBuffer<uint32_t> Words(In.Words), ByteStart(In.ByteStart), Symbols(In.Symbols);
  bench::DeviceBuffer<uint16_t> Table(huff::decodeTable(In.CodeLength));
  bench::DeviceBuffer<uint64_t> Hash(N);
  bench::DeviceBuffer<uint32_t> Bits(N);
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;

  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)huffDecodeBlocks);
    R.TimesMs = bench::timeLaunches(
        [&] {
          huffDecodeBlocks<<<Grid, Block>>>(N, Words.get(), ByteStart.get(), Symbols.get(),
                                            Table.get(), Hash.get(), Bits.get());
        },
        O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs(
        [&] { blockSymbolCounts<<<Grid, Block>>>(N, Symbols.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)huffDecodeBlocksSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          huffDecodeBlocksSorted<<<Grid, Block>>>(N, Order, Words.get(), ByteStart.get(),
                                                  Symbols.get(), Table.get(), Hash.get(),
                                                  Bits.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<uint64_t> GotHash = Hash.download();
  const std::vector<uint32_t> GotBits = Bits.download();
  // The checksum covers the hashes, then the bit counts.
  std::vector<unsigned char> Bytes(size_t(N) * (sizeof(uint64_t) + sizeof(uint32_t)));
  std::memcpy(Bytes.data(), GotHash.data(), N * sizeof(uint64_t));
  std::memcpy(Bytes.data() + N * sizeof(uint64_t), GotBits.data(), N * sizeof(uint32_t));
  R.Checksum = bench::fnv1a64(Bytes.data(), Bytes.size());

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "huff: checking against the CPU reference\n");
    const huff::Decoded Want = huff::referenceDecode(In);
    for (uint32_t I = 0; I < N; ++I)
      if (GotHash[I] != Want.Hash[I] || GotBits[I] != Want.Bits[I]) {
        char Message[200];
        std::snprintf(Message, sizeof Message,
                      "block %u (%u symbols, %u bytes from offset %u): GPU %u bits, hash "
                      "%016" PRIx64 ", CPU %u bits, hash %016" PRIx64,
                      I, In.Symbols[I], In.bytes(I), In.ByteStart[I], GotBits[I], GotHash[I],
                      Want.Bits[I], Want.Hash[I]);
        bench::requireMatch(false, Message);
      }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
