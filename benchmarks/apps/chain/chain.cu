// Lookups in a separately chained hash table, as a GPU key-value cache or a
// hash aggregation with overflow chains answers a batch of them: one thread
// per probe key (1-D grid, 128 threads a block) hashes the key, reads its
// bucket's head and walks the chain, one 16-byte node a step, comparing
// keys until it finds the key (a hit: the node and its value) or the chain
// ends (a miss), and writes the result and the nodes it read
// (ChainLookup.h). The table (ChainTable.h) is 2^22 bucket heads and a pool
// of 2^24 nodes (256 MiB) whose chains are scattered over the pool (nodes
// allocated in the keys' random arrival order, each pushed at its chain's
// head). The keys (ChainKeys.h) are (group, item) pairs and the table hashes
// the group alone, so a group's items share one chain: group sizes are a
// power law, so most buckets hold 0 to 3 nodes and a few hundred hold more
// than a thousand. The probes (ChainProbes.h: 2^22 by default) are 75%
// stored keys drawn by node (hot groups probed in proportion to their
// size), 12.5% absent items of such groups and 12.5% keys of absent groups.
// Divergence comes from the walks: a hit reads its chain down to its node,
// a miss the whole chain, 0 to ~2,000 nodes, and a warp waits for its
// longest walk. Memory-bound: a step is one dependent 16-byte load from an
// unrelated line of the pool against a 64-bit compare.
//
// Hand-written regrouping: probes sorted by their exact work, the head and
// the nodes read: a key kernel walks the same chain, so computing the key
// costs about a launch.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "../common/WarpSteps.h"
#include "ChainKeys.h"
#include "ChainLookup.h"
#include "ChainProbes.h"
#include "ChainReference.h"
#include "ChainTable.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using chain::Lookup;
using chain::Node;

// The table's arrays are the kernels' own parameters.
__global__ void chainLookup(uint32_t N, const uint64_t *__restrict__ Probes,
                            const uint32_t *__restrict__ Heads, const Node *__restrict__ Nodes,
                            Lookup *__restrict__ Out) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = chain::lookup(Heads, Nodes, Probes[I]);
}

// The hand-written copy: thread T looks up probe Order[T].
__global__ void chainLookupSorted(uint32_t N, const uint32_t *__restrict__ Order,
                                  const uint64_t *__restrict__ Probes,
                                  const uint32_t *__restrict__ Heads,
                                  const Node *__restrict__ Nodes, Lookup *__restrict__ Out) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < N) {
    const uint32_t I = Order[T];
    Out[I] = chain::lookup(Heads, Nodes, Probes[I]);
  }
}

// The key: the lookup done for its work alone.
__global__ void chainWork(uint32_t N, const uint64_t *__restrict__ Probes,
                          const uint32_t *__restrict__ Heads, const Node *__restrict__ Nodes,
                          uint32_t *__restrict__ Keys) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Keys[I] = chain::work(chain::lookup(Heads, Nodes, Probes[I]));
}

namespace {

// The chains' lengths, the nodes read per probe (the walk's trips) and how
// much of a warp (32 consecutive probes) the walk keeps busy: all nodes
// read over 32 times the sum of the warps' longest walks.
void printWork(const chain::ChainShape &C, const std::vector<Lookup> &Want) {
  std::vector<uint32_t> Length = C.Length;
  std::sort(Length.begin(), Length.end());
  const size_t B = Length.size();
  auto atLeast = [&](uint32_t X) {
    return B - size_t(std::lower_bound(Length.begin(), Length.end(), X) - Length.begin());
  };
  std::fprintf(stderr,
               "chain: buckets hold 0 to %u nodes (%.1f%% none, %.1f%% at most 3, median %u, "
               "99th percentile %u); %zu hold 100 or more, %zu 1,000 or more\n",
               Length.back(), 100.0 * (B - atLeast(1)) / B, 100.0 * (B - atLeast(4)) / B,
               Length[B / 2], Length[B * 99 / 100], atLeast(100), atLeast(1000));
  const size_t N = Want.size();
  std::vector<uint32_t> Visited(N);
  uint64_t Total = 0, Hits = 0;
  for (size_t I = 0; I < N; ++I) {
    Visited[I] = Want[I].Visited;
    Total += Visited[I];
    Hits += Want[I].Index != chain::NoNode;
  }
  const uint64_t Steps = bench::warpSteps(Visited);
  std::sort(Visited.begin(), Visited.end());
  std::fprintf(stderr,
               "chain: %.1f%% of the probes hit; %u to %u nodes read per probe (median %u, 90th "
               "percentile %u, 99th %u, mean %.1f); warps of 32 use %.1f%% of their lanes (a "
               "warp's longest walk %.1f nodes on average)\n",
               100.0 * Hits / N, Visited.front(), Visited.back(), Visited[N / 2],
               Visited[N * 9 / 10], Visited[N * 99 / 100], double(Total) / N,
               100.0 * Total / (32.0 * std::max<uint64_t>(1, Steps)),
               double(Steps) / ((N + 31) / 32));
}

std::string lookupText(const Lookup &L) {
  if (L.Index == chain::NoNode)
    return "a miss after " + std::to_string(L.Visited) + " nodes";
  return "node " + std::to_string(L.Index) + " (value " + std::to_string(L.Value) + ") after " +
         std::to_string(L.Visited) + " nodes";
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"chain",
                           "hash-table lookup: a key per thread walks its bucket's chain in a "
                           "separately chained table of 2^24 nodes (power-law chains)",
                           "probe keys", 1ull << 22, false, 1ull << 25};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const chain::KeySet Keys = chain::generateKeys(O.Seed);
  const chain::Table Table = chain::buildTable(Keys);
  const std::vector<uint64_t> Probes = chain::generateProbes(Keys, Table, N);
  if (!O.Quiet)
    std::fprintf(stderr,
                 "chain: %u keys of %u groups in 2^%u buckets, a pool of %.0f MiB; %u probe "
                 "keys\n",
                 chain::NodeCount, Keys.groups(), chain::BucketBits,
                 Table.Nodes.size() * sizeof(Node) / 1048576.0, N);

  bench::DeviceBuffer<uint32_t> Heads(Table.Heads);
  bench::DeviceBuffer<Node> Nodes(Table.Nodes);
  bench::DeviceBuffer<uint64_t> DeviceProbes(Probes);
  bench::DeviceBuffer<Lookup> Out(N);
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)chainLookup);
    R.TimesMs = bench::timeLaunches(
        [&] {
          chainLookup<<<Grid, Block>>>(N, DeviceProbes.get(), Heads.get(), Nodes.get(), Out.get());
        },
        O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> WorkKeys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs([&] {
      chainWork<<<Grid, Block>>>(N, DeviceProbes.get(), Heads.get(), Nodes.get(), WorkKeys.get());
    });
    R.RegroupMs += bench::sortByKeyDescending(WorkKeys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)chainLookupSorted);
    R.TimesMs = bench::timeLaunches(
        [&] {
          chainLookupSorted<<<Grid, Block>>>(N, Order, DeviceProbes.get(), Heads.get(), Nodes.get(),
                                             Out.get());
        },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<Lookup> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(Lookup));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "chain: checking against the CPU reference\n");
    const chain::ChainShape Shape = chain::chainShape(Keys);
    const std::vector<Lookup> Want = chain::referenceLookups(Keys, Shape, Probes);
    if (!O.Quiet)
      printWork(Shape, Want);
    for (uint32_t I = 0; I < N; ++I)
      if (Got[I].Index != Want[I].Index || Got[I].Value != Want[I].Value ||
          Got[I].Visited != Want[I].Visited) {
        char Key[24];
        std::snprintf(Key, sizeof Key, "%016llx", (unsigned long long)Probes[I]);
        bench::requireMatch(false, "probe " + std::to_string(I) + " (key " + Key + "): GPU " +
                                       lookupText(Got[I]) + ", CPU " + lookupText(Want[I]));
      }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
