// Longest-prefix match of IPv4 destinations in a routing table, the lookup a
// software router or firewall does for every packet: one thread per address
// (1-D grid, 128 threads a block) finds the next hop of the longest prefix
// that contains it (LpmLookup.h). The table (LpmTable.h: 2^19 routes, the
// default route among them, with the shape of the global BGP table, 61%
// /24, plus a router's internal /25 to /32 routes) is built on the host into a
// variable-stride trie (LpmTrie.h): a direct-indexed root of the 2^16 /16s,
// then a binary trie per /16, one address bit a level. The addresses
// (LpmTraffic.h: 2^22 by default) mix traffic to table prefixes (mostly
// /24s), to the internal routes and uniformly over IPv4 (big aggregates,
// unannounced space and bogons). Divergence comes from the walk's depth: an
// address whose /16 has no longer prefix reads its root entry only, one in
// a /24 9 entries, one in a /32 17, and a warp waits for its deepest lane.
// Memory-bound: every level is one 8-byte gather from 15 MiB of nodes at a
// place the entry before gives, against a dozen instructions (the index from
// the address's next bit, a compare and a select for the next hop).
//
// Hand-written regrouping: addresses sorted by the number of trie nodes
// their walk visits, which a small kernel finds by walking the trie without
// keeping the next hops.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "LpmLookup.h"
#include "LpmReference.h"
#include "LpmTable.h"
#include "LpmTraffic.h"
#include "LpmTrie.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace lpm {

struct DeviceTrie {
  const Entry *Root;
  const Entry *Nodes;
};

// Address I's next hop goes to Out[I].
__device__ inline void storeNextHop(const DeviceTrie &T, const uint32_t *Addresses, uint32_t I,
                                    uint32_t *Out) {
  Out[I] = longestMatch(T.Root, T.Nodes, Addresses[I]).NextHop;
}

} // namespace lpm

using lpm::DeviceTrie;

__global__ void lpmLookup(DeviceTrie T, uint32_t N, const uint32_t *__restrict__ Addresses,
                          uint32_t *__restrict__ Out) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    lpm::storeNextHop(T, Addresses, I, Out);
}

// The hand-written copy: thread T looks up address Order[T].
__global__ void lpmLookupSorted(DeviceTrie T, uint32_t N, const uint32_t *__restrict__ Order,
                                const uint32_t *__restrict__ Addresses,
                                uint32_t *__restrict__ Out) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    lpm::storeNextHop(T, Addresses, Order[I], Out);
}

// The hand-written variant's key: the trie nodes the address's walk visits.
__global__ void lpmNodesVisited(DeviceTrie T, uint32_t N, const uint32_t *__restrict__ Addresses,
                                uint32_t *__restrict__ Keys) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Keys[I] = lpm::longestMatch(T.Root, T.Nodes, Addresses[I]).Visited;
}

namespace {

// Trie nodes visited per address (the key, exact), and how much of a warp
// (32 consecutive addresses) the walk keeps busy: the nodes visited over 32
// times the sum of the warps' deepest walks.
void printWork(const lpm::Trie &T, size_t Prefixes, const std::vector<uint32_t> &Addresses) {
  const size_t N = Addresses.size();
  double Total = 0, WarpNodes = 0;
  uint32_t Max = 0;
  size_t RootOnly = 0;
  for (size_t W = 0; W < N; W += 32) {
    const size_t Lanes = std::min<size_t>(32, N - W);
    uint32_t WarpMax = 0;
    for (size_t I = W; I < W + Lanes; ++I) {
      const uint32_t Visited =
          lpm::longestMatch(T.Root.data(), T.Nodes.data(), Addresses[I]).Visited;
      Total += Visited;
      RootOnly += Visited == 1;
      WarpMax = std::max(WarpMax, Visited);
    }
    WarpNodes += double(Lanes) * WarpMax;
    Max = std::max(Max, WarpMax);
  }
  std::fprintf(stderr,
               "lpm: %zu routes, a trie of %zu nodes (%.1f MiB); %zu addresses: %.2f nodes "
               "visited per address (at most %u; %.0f%% read the root entry only); warps of 32 "
               "use %.0f%% of their lanes\n",
               Prefixes, T.Nodes.size() / 2 - 1, T.Nodes.size() * sizeof(lpm::Entry) / 1048576.0, N,
               Total / N, Max, 100.0 * RootOnly / N, 100 * Total / WarpNodes);
}

std::string addressText(uint32_t A) {
  return std::to_string(A >> 24) + "." + std::to_string(A >> 16 & 255) + "." +
         std::to_string(A >> 8 & 255) + "." + std::to_string(A & 255);
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"lpm",
                           "longest-prefix match: an IPv4 address per thread walks a /16-rooted "
                           "binary trie of a 512K-prefix BGP-shaped routing table",
                           "addresses", 1ull << 22, false, 1ull << 26};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const std::vector<lpm::Prefix> Table = lpm::generateTable(O.Seed);
  const lpm::Trie Trie = lpm::buildTrie(Table);
  const std::vector<uint32_t> Addresses = lpm::generateAddresses(Table, N, O.Seed);
  if (!O.Quiet)
    printWork(Trie, Table.size(), Addresses);

  bench::DeviceBuffer<lpm::Entry> Root(Trie.Root), Nodes(Trie.Nodes);
  bench::DeviceBuffer<uint32_t> DeviceAddresses(Addresses), Out(N);
  const DeviceTrie T{Root.get(), Nodes.get()};
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;

  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)lpmLookup);
    R.TimesMs = bench::timeLaunches(
        [&] { lpmLookup<<<Grid, Block>>>(T, N, DeviceAddresses.get(), Out.get()); }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs(
        [&] { lpmNodesVisited<<<Grid, Block>>>(T, N, DeviceAddresses.get(), Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)lpmLookupSorted);
    R.TimesMs = bench::timeLaunches(
        [&] { lpmLookupSorted<<<Grid, Block>>>(T, N, Order, DeviceAddresses.get(), Out.get()); },
        O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  const std::vector<uint32_t> Got = Out.download();
  R.Checksum = bench::fnv1a64(Got.data(), Got.size() * sizeof(uint32_t));

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "lpm: checking against the CPU reference\n");
    const std::vector<uint32_t> Want = lpm::referenceNextHops(Table, Addresses);
    for (uint32_t I = 0; I < N; ++I)
      if (Got[I] != Want[I])
        bench::requireMatch(false, "address " + std::to_string(I) + " (" +
                                       addressText(Addresses[I]) + "): GPU next hop " +
                                       std::to_string(Got[I]) + ", CPU " + std::to_string(Want[I]));
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
