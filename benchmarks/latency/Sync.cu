// Synchronization (seed 003): __syncthreads latency by block size (GPU
// clock, chains of barriers) and throughput by block size (host clock, all
// SMs full); warp-level sync of tiles of 1..32 threads and of coalesced
// groups of 1..32 threads (chains in one warp); grid-wide sync under a
// cooperative launch by the host-clock difference method of seed 003
// section 3.2: the time of N2 syncs less that of N1, over N2 - N1.
//
// Tiles sync with __syncwarp(tile mask) and coalesced groups with
// __syncwarp(__activemask()), which is what cooperative_groups' tile and
// coalesced_group sync() compile to; grid sync is cooperative_groups'.
#include "Chain.cuh"

#include <cooperative_groups.h>

namespace {
constexpr int Short = 16, Long = 144, Reps = latency::ChainReps;
}

// L barriers between the clock reads; thread 0 keeps the time.
template <int L> __global__ void barriers(long long *Cycles) {
#pragma unroll 1
  for (int R = 0; R < Reps; ++R) {
    long long T0 = clock64();
#pragma unroll
    for (int I = 0; I < L; ++I)
      __syncthreads();
    long long T1 = clock64();
    if (threadIdx.x == 0)
      Cycles[R] = T1 - T0;
  }
}

// L warp syncs of groups of Size threads: a tile of the warp, or (Coalesced)
// the first Size lanes, the others having branched away.
template <int L> __global__ void warpSyncs(int Size, bool Coalesced, long long *Cycles) {
  unsigned Lane = threadIdx.x % 32;
  unsigned Mask = Size == 32 ? 0xffffffffu : ((1u << Size) - 1) << (Lane / Size * Size);
  if (Coalesced && Lane >= unsigned(Size))
    return;
  if (Coalesced)
    Mask = __activemask();
#pragma unroll 1
  for (int R = 0; R < Reps; ++R) {
    long long T0 = clock64();
#pragma unroll
    for (int I = 0; I < L; ++I)
      __syncwarp(Mask);
    long long T1 = clock64();
    if (Lane == 0)
      Cycles[R] = T1 - T0;
  }
}

// N barriers per block, every block of a full GPU, timed on the host.
__global__ void barrierLoop(int N) {
#pragma unroll 1
  for (int I = 0; I < N; ++I)
    __syncthreads();
}

__global__ void gridSyncs(int N) {
  cooperative_groups::grid_group Grid = cooperative_groups::this_grid();
#pragma unroll 1
  for (int I = 0; I < N; ++I)
    Grid.sync();
}

namespace latency {
namespace {

// Per-barrier cycles from the two chain lengths, every repetition but the first.
template <class Launch> std::vector<double> slopes(const Context &C, Launch Run) {
  long long *Cycles;
  CHECK(cudaMalloc(&Cycles, 2 * Reps * sizeof(long long)));
  std::vector<double> Out;
  for (int L = 0; L < C.Repeat; ++L) {
    Run(Cycles, Cycles + Reps);
    CHECK(cudaGetLastError());
    long long H[2 * Reps];
    CHECK(cudaMemcpy(H, Cycles, sizeof H, cudaMemcpyDeviceToHost));
    for (int R = 1; R < Reps; ++R)
      Out.push_back(double(H[Reps + R] - H[R]) / (Long - Short));
  }
  CHECK(cudaFree(Cycles));
  return Out;
}

// Microseconds per unit of N, by the difference of two host-timed runs.
template <class Launch> std::vector<double> hostSlopes(const Context &C, int N1, int N2, Launch Run) {
  cudaEvent_t A, B;
  CHECK(cudaEventCreate(&A));
  CHECK(cudaEventCreate(&B));
  auto time = [&](int N) {
    CHECK(cudaEventRecord(A));
    Run(N);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(B));
    CHECK(cudaEventSynchronize(B));
    float Ms = 0;
    CHECK(cudaEventElapsedTime(&Ms, A, B));
    return 1000.0 * Ms;
  };
  time(N1); // warm-up
  std::vector<double> Out;
  for (int I = 0; I < 3 * C.Repeat; ++I) {
    double T1 = time(N1), T2 = time(N2);
    Out.push_back((T2 - T1) / (N2 - N1));
  }
  CHECK(cudaEventDestroy(A));
  CHECK(cudaEventDestroy(B));
  return Out;
}

Point point(double X, const std::vector<double> &Samples, double Scale = 1) {
  Summary S = summarize(Samples);
  return {X, S.Median * Scale, S.Spread * Scale};
}

void blockBarriers(Context &C, Results &R) {
  Sweep Latency{"sync-barrier-latency", "sync", "__syncthreads latency by block size",
                "threads per block", "cycles per barrier", true, {{"one block", {}}}, ""};
  Sweep Throughput{"sync-barrier-throughput", "sync",
                   "__syncthreads throughput, every SM full", "threads per block",
                   "block barriers per microsecond per SM", true, {{"all SMs", {}}}, ""};
  for (int Threads = 32; Threads <= 1024; Threads *= 2) {
    C.Report->step("__syncthreads, " + std::to_string(Threads) + " threads");
    std::vector<double> S = slopes(C, [&](long long *A, long long *B) {
      barriers<Short><<<1, Threads>>>(A);
      barriers<Long><<<1, Threads>>>(B);
    });
    Latency.Lines[0].Points.push_back(point(Threads, S));
    if (Threads == 256) {
      Summary Sum = summarize(S);
      R.Entries.push_back({"barrier.cta.sync.aligned.all", "sync", Sum.Median, Sum.Spread,
                           Sum.Samples, "__syncthreads chain, one block of 256 threads"});
    }
    int PerSm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&PerSm, barrierLoop, Threads, 0));
    int Blocks = PerSm * C.Prop.multiProcessorCount;
    std::vector<double> Us = hostSlopes(C, 1000, 5000, [&](int N) { barrierLoop<<<Blocks, Threads>>>(N); });
    std::vector<double> Rate;
    for (double U : Us)
      Rate.push_back(PerSm / U);
    Throughput.Lines[0].Points.push_back(point(Threads, Rate));
  }
  R.Sweeps.push_back(Latency);
  R.Sweeps.push_back(Throughput);
}

void warpLevel(Context &C, Results &R) {
  Sweep W{"sync-warp", "sync", "Warp-level sync latency by group size", "threads in the group",
          "cycles per sync", true, {{"tile (tiled_partition)", {}}, {"coalesced group", {}}}, ""};
  for (int Size = 1; Size <= 32; ++Size) {
    bool Tile = (Size & (Size - 1)) == 0;
    for (int Coalesced = Tile ? 0 : 1; Coalesced <= 1; ++Coalesced) {
      C.Report->step(std::string(Coalesced ? "coalesced group " : "tile ") + std::to_string(Size));
      std::vector<double> S = slopes(C, [&](long long *A, long long *B) {
        warpSyncs<Short><<<1, 32>>>(Size, Coalesced, A);
        warpSyncs<Long><<<1, 32>>>(Size, Coalesced, B);
      });
      W.Lines[Coalesced].Points.push_back(point(Size, S));
      if (Size == 32 && !Coalesced) {
        Summary Sum = summarize(S);
        R.Entries.push_back({"bar.warp.sync", "sync", Sum.Median, Sum.Spread, Sum.Samples,
                             "__syncwarp(full mask) chain, one converged warp"});
      }
    }
  }
  R.Sweeps.push_back(W);
}

void gridLevel(Context &C, Results &R) {
  int Cooperative = 0;
  CHECK(cudaDeviceGetAttribute(&Cooperative, cudaDevAttrCooperativeLaunch, C.Device));
  if (!Cooperative) {
    R.Missing.push_back({"grid.sync", "sync", "this device cannot launch cooperative kernels"});
    return;
  }
  Sweep G{"sync-grid", "sync", "Grid-wide sync latency (cooperative launch, host clock)",
          "blocks per SM", "microseconds per grid.sync()", true, {}, ""};
  for (int Threads : {32, 256, 1024}) {
    Series Line{std::to_string(Threads) + " threads per block", {}};
    int MaxPerSm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&MaxPerSm, gridSyncs, Threads, 0));
    for (int PerSm = 1; PerSm <= 8 && PerSm <= MaxPerSm; PerSm *= 2) {
      C.Report->step("grid.sync, " + std::to_string(PerSm) + " x " + std::to_string(Threads));
      dim3 Blocks(PerSm * C.Prop.multiProcessorCount);
      std::vector<double> Us = hostSlopes(C, 20, 200, [&](int N) {
        void *Args[] = {&N};
        CHECK(cudaLaunchCooperativeKernel((void *)gridSyncs, Blocks, dim3(Threads), Args, 0, 0));
      });
      Line.Points.push_back(point(PerSm, Us));
      if (PerSm == 1 && Threads == 256) {
        Summary Sum = summarize(Us);
        R.Entries.push_back({"grid.sync", "sync", Sum.Median * C.SmClockMHz,
                             Sum.Spread * C.SmClockMHz, Sum.Samples,
                             "cooperative_groups grid sync, one 256-thread block per SM, host "
                             "clock difference of 200 and 20 syncs, times the SM clock"});
      }
    }
    G.Lines.push_back(Line);
  }
  R.Sweeps.push_back(G);
}

} // namespace

void runSync(Context &C, Results &R) {
  blockBarriers(C, R);
  warpLevel(C, R);
  gridLevel(C, R);
}

void describeSync(std::vector<SassExpectation> &Out) {
  for (int L : {Short, Long}) {
    std::string N = std::to_string(L);
    Out.push_back({"barriers<" + N + ">", "BAR\\.SYNC.*", L, "barrier.cta.sync.aligned.all"});
    // ptxas may turn a sync of a provably converged warp into a NOP: one per step either way.
    Out.push_back({"warpSyncs<" + N + ">", "WARPSYNC.*|NOP", L, "bar.warp.sync"});
  }
}

} // namespace latency
