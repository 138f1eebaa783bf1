// CSV ingestion as in a GPU dataframe reader: a thread parses one record of
// a text buffer of newline-terminated records of integers (CsvRecords.h:
// 2^22 records by default, 8 to 2000 bytes, heavy-tailed: median 16, mean
// 52), byte by byte from its start offset to the next record's (CsvParse.h):
// it splits the fields at commas, reads each as a signed decimal integer
// (empty is 0) and writes the record's field count and a 64-bit hash of its
// values. The loop runs once per byte, so a warp waits for its longest
// record: in file order most of a warp's lanes are done after a few dozen
// bytes while one runs on for hundreds. Memory-bound: a step is one byte
// load and ~15 integer instructions, and each lane loads from its own
// record, so a warp's load touches a 128-byte line per lane in a different
// record (32 once the records are sorted by length and no longer neighbours).
//
// Hand-written regrouping: records sorted by their length (the exact trip
// count), which a small kernel reads off the row offsets.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "CsvParse.h"
#include "CsvRecords.h"
#include "CsvReference.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

namespace parse {

// Record I's hash goes to Hash[I], its field count to Fields[I].
__device__ inline void parseOne(const uint8_t *Text, const uint32_t *RowStart, uint32_t I,
                                uint64_t *Hash, uint32_t *Fields) {
  const RecordSummary S = parseRecord(Text, RowStart[I], RowStart[I + 1]);
  Hash[I] = S.Hash;
  Fields[I] = S.Fields;
}

} // namespace parse

__global__ void parseRecords(uint32_t N, const uint8_t *__restrict__ Text,
                             const uint32_t *__restrict__ RowStart, uint64_t *__restrict__ Hash,
                             uint32_t *__restrict__ Fields) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    parse::parseOne(Text, RowStart, T, Hash, Fields);
}

// The hand-written copy: thread T parses record Order[T].
__global__ void parseRecordsSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                   const uint8_t *__restrict__ Text,
                                   const uint32_t *__restrict__ RowStart,
                                   uint64_t *__restrict__ Hash, uint32_t *__restrict__ Fields) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    parse::parseOne(Text, RowStart, Order[T], Hash, Fields);
}

__global__ void recordLengths(uint32_t N, const uint32_t *__restrict__ RowStart,
                              uint32_t *__restrict__ Keys) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N)
    Keys[T] = RowStart[T + 1] - RowStart[T];
}

namespace {

// Record lengths, and how much of a warp (32 consecutive records) the byte
// loop keeps busy: all records' bytes over 32 times the sum of the warps'
// longest records.
void printRecords(const parse::Records &R) {
  const uint32_t N = R.count();
  std::vector<uint32_t> Lengths(N);
  uint64_t WarpSteps = 0;
  for (uint32_t W = 0; W < N; W += 32) {
    uint32_t Max = 0;
    for (uint32_t I = W; I < std::min(N, W + 32); ++I) {
      Lengths[I] = R.length(I);
      Max = std::max(Max, Lengths[I]);
    }
    WarpSteps += Max;
  }
  std::sort(Lengths.begin(), Lengths.end());
  std::fprintf(stderr,
               "parse: %u records, %.1f MB of text, %u to %u bytes (median %u, mean %.1f); "
               "warps of 32 use %.1f%% of their lanes\n",
               N, R.Text.size() / 1e6, Lengths.front(), Lengths.back(), Lengths[N / 2],
               double(R.Text.size()) / N, 100.0 * R.Text.size() / (32.0 * WarpSteps));
}

} // namespace

int main(int argc, char **argv) {
  // At most 2000 bytes a record: 2^21 records always fit 32-bit offsets, and
  // 2^25 hold ~1.7 GB on average (generateRecords checks).
  const bench::AppInfo App{"parse",
                           "CSV parsing of integer records (8 to 2000 bytes, heavy-tailed), a "
                           "record per thread, byte by byte",
                           "records", 1ull << 22, false, 1ull << 25};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const parse::Records In = parse::generateRecords(N, O.Seed);
  if (!O.Quiet)
    printRecords(In);

  bench::DeviceBuffer<uint8_t> Text(In.Text);
  bench::DeviceBuffer<uint32_t> RowStart(In.RowStart);
  bench::DeviceBuffer<uint64_t> Hash(N);
  bench::DeviceBuffer<uint32_t> Fields(N);
  const unsigned Block = 256, Grid = (N + Block - 1) / Block;

  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)parseRecords);
    R.TimesMs = bench::timeLaunches(
        [&] {
          parseRecords<<<Grid, Block>>>(N, Text.get(), RowStart.get(), Hash.get(), Fields.get());
        },
        O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs =
        bench::timeOnceMs([&] { recordLengths<<<Grid, Block>>>(N, RowStart.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)parseRecordsSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          parseRecordsSorted<<<Grid, Block>>>(N, Order, Text.get(), RowStart.get(), Hash.get(),
                                              Fields.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<uint64_t> GotHash = Hash.download();
  const std::vector<uint32_t> GotFields = Fields.download();
  // The checksum covers the hashes, then the field counts.
  std::vector<unsigned char> Bytes(size_t(N) * (sizeof(uint64_t) + sizeof(uint32_t)));
  std::memcpy(Bytes.data(), GotHash.data(), N * sizeof(uint64_t));
  std::memcpy(Bytes.data() + N * sizeof(uint64_t), GotFields.data(), N * sizeof(uint32_t));
  R.Checksum = bench::fnv1a64(Bytes.data(), Bytes.size());

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "parse: checking against the CPU reference\n");
    const parse::Parsed Want = parse::referenceParse(In);
    for (uint32_t I = 0; I < N; ++I)
      if (GotHash[I] != Want.Hash[I] || GotFields[I] != Want.Fields[I]) {
        char Message[160];
        std::snprintf(Message, sizeof Message,
                      "record %u (%u bytes from offset %u): GPU %u fields, hash %016" PRIx64
                      ", CPU %u fields, hash %016" PRIx64,
                      I, In.length(I), In.RowStart[I], GotFields[I], GotHash[I], Want.Fields[I],
                      Want.Hash[I]);
        bench::requireMatch(false, Message);
      }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
