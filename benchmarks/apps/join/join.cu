// The probe phase of a hash join, one probe key per thread (1-D grid, 256
// threads a block): the build relation (JoinInput.h: 2^24 slots of 8 bytes,
// 128 MiB at the default size, 70% full, keys skewed so that hot keys have
// up to 256 rows) sits in an open-addressing table with linear probing built
// on the host (JoinTable.h), and each thread walks from its key's home slot
// to the first empty slot, counting the key's rows and summing their
// payloads (JoinProbe.h). Divergence comes from the walks' lengths: an absent
// key may stop at its home, a hot key reads every one of its rows, and keys
// homed inside the long clusters that hot keys' runs grow read to the
// cluster's end: 1 to about a thousand slots, and a warp waits for its
// longest walk. Memory-bound: a slot is one 8-byte load from DRAM (or L1
// once its line is in) against a compare and an add.
//
// Hand-written regrouping: probe keys sorted by an estimate of their rows
// plus 1, read from a count table that the build fills on the host (the
// rows homed in each group of 4 slots, 16 bits each, 8 MiB at the default
// size: in L2), as the histogram a radix join computes anyway.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "JoinInput.h"
#include "JoinProbe.h"
#include "JoinReference.h"
#include "JoinTable.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace join {

// The count table's groups: 2^GroupBits home slots each.
constexpr uint32_t GroupBits = 2;

struct DeviceTable {
  const Row *Slots;
  uint32_t SlotBits;
};

// Probe key I's matches go to Out[I].
__device__ inline void storeMatch(const DeviceTable &T, const uint32_t *ProbeKeys, uint32_t I,
                                  Match *Out) {
  Out[I] = probe(T.Slots, T.SlotBits, ProbeKeys[I]);
}

// Rows homed in each group of 2^GroupBits slots, saturated at 2^16 - 1.
inline std::vector<uint16_t> rowsPerGroup(const Input &In) {
  std::vector<uint32_t> Count(size_t(1) << (In.SlotBits - GroupBits), 0);
  for (const Row &R : In.Rows)
    ++Count[homeSlot(R.Key, In.SlotBits) >> GroupBits];
  std::vector<uint16_t> Saturated(Count.size());
  for (size_t G = 0; G < Count.size(); ++G)
    Saturated[G] = uint16_t(std::min<uint32_t>(Count[G], UINT16_MAX));
  return Saturated;
}

} // namespace join

using join::DeviceTable;
using join::Match;

__global__ void joinProbe(DeviceTable T, uint32_t N, const uint32_t *__restrict__ ProbeKeys,
                          Match *__restrict__ Out) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    join::storeMatch(T, ProbeKeys, I, Out);
}

// The hand-written copy: thread T probes key Order[T].
__global__ void joinProbeSorted(DeviceTable T, uint32_t N, const uint32_t *__restrict__ Order,
                                const uint32_t *__restrict__ ProbeKeys, Match *__restrict__ Out) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    join::storeMatch(T, ProbeKeys, Order[I], Out);
}

// The hand-written variant's key: the rows homed in the probe key's group of
// slots (its own rows and those of keys that share the group), plus 1.
__global__ void joinEstimatedRows(uint32_t SlotBits, uint32_t N,
                                  const uint32_t *__restrict__ ProbeKeys,
                                  const uint16_t *__restrict__ RowsPerGroup,
                                  uint32_t *__restrict__ Keys) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Keys[I] = RowsPerGroup[join::homeSlot(ProbeKeys[I], SlotBits) >> join::GroupBits] + 1u;
}

namespace {

// Slots a probe reads, the empty one included.
uint32_t slotsRead(const join::Input &In, uint32_t Key) {
  const uint32_t Mask = (1u << In.SlotBits) - 1;
  uint32_t Read = 1;
  for (uint32_t S = join::homeSlot(Key, In.SlotBits); In.Table[S].Key != join::EmptyKey;
       S = (S + 1) & Mask)
    ++Read;
  return Read;
}

// Slots read per probe, and how much of a warp (32 consecutive probes) the
// walk keeps busy: the slots read over 32 times the sum of the warps'
// longest walks.
void printWork(const join::Input &In) {
  const size_t N = In.ProbeKeys.size();
  std::vector<uint32_t> Read(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      Read[I] = slotsRead(In, In.ProbeKeys[I]);
  });
  double Total = 0, WarpSlots = 0;
  uint32_t Max = 0;
  for (size_t W = 0; W < N; W += 32) {
    const size_t Lanes = std::min<size_t>(32, N - W);
    const uint32_t WarpMax = *std::max_element(Read.begin() + W, Read.begin() + W + Lanes);
    for (size_t I = W; I < W + Lanes; ++I)
      Total += Read[I];
    WarpSlots += double(Lanes) * WarpMax;
    Max = std::max(Max, WarpMax);
  }
  std::fprintf(stderr,
               "join: %.1f slots read per probe (at most %u); warps of 32 use %.0f%% of their "
               "lanes\n",
               Total / N, Max, 100 * Total / WarpSlots);
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"join",
                           "hash-join probe: a key per thread walks a linear-probing table of "
                           "skewed build keys (hot keys' runs and clusters)",
                           "probe keys", 1ull << 22, false, 1ull << 25};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const join::Input In = join::generate(N, O.Seed);
  if (!O.Quiet)
    std::fprintf(stderr, "join: %zu build rows of %u keys in 2^%u slots, %u probe keys\n",
                 In.Rows.size(), In.DistinctKeys, In.SlotBits, N);

  bench::DeviceBuffer<join::Row> Table(In.Table);
  bench::DeviceBuffer<uint32_t> ProbeKeys(In.ProbeKeys);
  bench::DeviceBuffer<Match> Out(N);
  const DeviceTable T{Table.get(), In.SlotBits};
  const unsigned Block = 256, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)joinProbe);
    R.TimesMs = bench::timeLaunches(
        [&] { joinProbe<<<Grid, Block>>>(T, N, ProbeKeys.get(), Out.get()); }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint16_t> RowsPerGroup(join::rowsPerGroup(In));
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs([&] {
      joinEstimatedRows<<<Grid, Block>>>(In.SlotBits, N, ProbeKeys.get(), RowsPerGroup.get(),
                                         Keys.get());
    });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)joinProbeSorted);
    R.TimesMs = bench::timeLaunches(
        [&] { joinProbeSorted<<<Grid, Block>>>(T, N, Order, ProbeKeys.get(), Out.get()); },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<Match> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(Match));

  if (O.Check) {
    if (!O.Quiet) {
      std::fprintf(stderr, "join: checking against the CPU reference\n");
      printWork(In);
    }
    const std::vector<Match> Want = join::referenceMatches(In);
    for (uint32_t I = 0; I < N; ++I)
      if (Got[I].Count != Want[I].Count || Got[I].PayloadSum != Want[I].PayloadSum)
        bench::requireMatch(false, "probe " + std::to_string(I) + " (key " +
                                       std::to_string(In.ProbeKeys[I]) + "): GPU " +
                                       std::to_string(Got[I].Count) + " rows, payload sum " +
                                       std::to_string(Got[I].PayloadSum) + "; CPU " +
                                       std::to_string(Want[I].Count) + " rows, payload sum " +
                                       std::to_string(Want[I].PayloadSum));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
