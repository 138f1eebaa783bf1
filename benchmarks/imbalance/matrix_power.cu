// Seed 001's matrix-power benchmark (Algorithm 1): every unit of work raises
// a 16x16 matrix to a power drawn from a work distribution, by repeated
// multiplication, so its iteration count is the exponent. Per group of n
// units it measures
//   SIMT cost = sum over the group's threads of (time the whole group is done
//               - the thread's start), the group synchronized after the loop;
//   MIMD cost = sum over the threads of (end of the thread's own last
//               multiplication - its start),
// both with clock64, and reports the mean of SIMT / MIMD next to the mean of
// the same groups' n max / sum (the simulated loss): seed 001 Table I's
// measured and simulated columns.
//
// One group per warp, in lanes 0..n-1, the other lanes idle: a group then
// shares its warp with no other group, so its lockstep is its own (two
// groups in one warp would wait for each other at the loop's reconvergence,
// which the model does not describe).
//
// The model assumes an iteration costs the same however many lanes of the
// group still loop. Memory traffic measured in bytes breaks that: with the
// power R in local memory (spilled: 256 floats do not fit the registers) or a
// matrix per lane in global memory, an iteration cost more while more lanes
// were active and the measured loss fell 2-20% below the model
// (benchmarks/results/h100/imbalance-matrix-power.md). So both matrices live
// in shared memory, where a warp's access costs one wavefront whether 1 or 32
// lanes take part: M once per group (every lane reads the same word, a
// broadcast), R one tile per lane, padded so that the lanes' words fall in
// distinct banks.
//
//   bench-imbalance-matrix-power [groups=65536] [seed=5489] [sync=1] [n-list=2,4,8,16,32]
//                                [resident=4 groups per SM; 0: as many as fit]
// Prints CSV, one row per distribution and n: simulated_mean (mean n max /
// sum of the drawn exponents), measured_mean and measured_sd (of SIMT /
// MIMD), relative_difference (|measured - simulated| / simulated) and
// cycles_per_iteration (MIMD cycles per multiplication). The model's mean
// for a row is `divopt imbalance DIST --n N`. sync=0 drops the group's
// __syncwarp before the SIMT clock read (seed 001 section IV-D).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <vector>
#include "divopt/CudaCheck.h"


constexpr int Dim = 16;
constexpr unsigned WarpSize = 32;
// Distinct input matrices, shared round-robin by the units: 16 MB instead of
// the paper's one per unit (8 GB for 2^18 groups of 32), same work per step.
constexpr unsigned PoolMatrices = 4096;
// Lane l's R[i] is at l * TileStride + i: 257 = 1 mod 32 puts the 32 lanes'
// words of one index in 32 distinct banks.
constexpr unsigned TileStride = Dim * Dim + 1;
constexpr size_t SharedBytes = (WarpSize * TileStride + Dim * Dim) * sizeof(float);

// One block per group (blockDim.x = 32).
__global__ void matrixPower(const float *__restrict__ Pool, const unsigned *__restrict__ Exponents,
                            unsigned GroupSize, bool Sync, unsigned long long *SimtCycles,
                            unsigned long long *MimdCycles, float *Checksums) {
  extern __shared__ float Shared[];
  float *M = Shared;                                  // the group's matrix
  float *R = Shared + Dim * Dim + threadIdx.x * TileStride; // this lane's M^k
  unsigned Group = blockIdx.x, Lane = threadIdx.x;
  const float *Source = Pool + (Group % PoolMatrices) * Dim * Dim;
  for (unsigned I = Lane; I < Dim * Dim; I += WarpSize)
    M[I] = Source[I];
  __syncwarp();
  if (Lane >= GroupSize)
    return;
  unsigned Unit = Group * WarpSize + Lane;
  for (int I = 0; I < Dim * Dim; ++I)
    R[I] = I / Dim == I % Dim ? 1.0f : 0.0f;
  unsigned Power = Exponents[Unit];
  unsigned GroupMask = GroupSize == WarpSize ? 0xffffffffu : (1u << GroupSize) - 1;

  long long Start = clock64(), LastStep = Start;
  for (unsigned K = 0; K < Power; ++K) {
    // R <- R M one row at a time: row r of the product needs only row r of R.
#pragma unroll 1
    for (int Row = 0; Row < Dim; ++Row) {
      float In[Dim], Out[Dim];
#pragma unroll
      for (int I = 0; I < Dim; ++I)
        In[I] = R[Row * Dim + I];
#pragma unroll
      for (int C = 0; C < Dim; ++C) {
        float Acc = 0;
#pragma unroll
        for (int I = 0; I < Dim; ++I)
          Acc = fmaf(In[I], M[I * Dim + C], Acc);
        Out[C] = Acc;
      }
#pragma unroll
      for (int C = 0; C < Dim; ++C)
        R[Row * Dim + C] = Out[C];
    }
    LastStep = clock64();
  }
  if (Sync)
    __syncwarp(GroupMask);
  long long Done = clock64();

  SimtCycles[Unit] = (unsigned long long)(Done - Start);
  MimdCycles[Unit] = (unsigned long long)(LastStep - Start);
  float Sum = 0;
  for (int I = 0; I < Dim * Dim; ++I)
    Sum += R[I];
  Checksums[Unit] = Sum; // keeps the multiplications alive
}

namespace {

// Seed 001 Table I's distributions, named as `divopt imbalance` takes them,
// drawn with the standard library as the paper's simulation did.
struct WorkDistribution {
  const char *Spec;
  std::function<unsigned(std::mt19937 &)> Draw;
};

std::vector<WorkDistribution> tableIDistributions() {
  return {
      {"binomial:40,0.5", [D = std::binomial_distribution<unsigned>(40, 0.5)](
                              std::mt19937 &G) mutable { return D(G); }},
      {"geometric:0.05", // trials up to the first success: support 1, 2, ...
       [D = std::geometric_distribution<unsigned>(0.05)](std::mt19937 &G) mutable {
         return D(G) + 1;
       }},
      {"poisson:30",
       [D = std::poisson_distribution<unsigned>(30)](std::mt19937 &G) mutable { return D(G); }},
      {"uniform:20,40", [D = std::uniform_int_distribution<unsigned>(20, 40)](
                            std::mt19937 &G) mutable { return D(G); }},
      {"negbinomial:5,0.3", // failures before the 5th success
       [D = std::negative_binomial_distribution<unsigned>(5, 0.3)](std::mt19937 &G) mutable {
         return D(G);
       }},
  };
}

struct Moments {
  double Sum = 0, SumSquares = 0;
  unsigned long long Count = 0;
  void add(double X) {
    Sum += X;
    SumSquares += X * X;
    ++Count;
  }
  double mean() const { return Sum / double(Count); }
  double sd() const {
    double M = mean();
    return std::sqrt(std::max(0.0, SumSquares / double(Count) - M * M));
  }
};

std::vector<unsigned> parseSizes(const char *Text) {
  std::vector<unsigned> Sizes;
  for (const char *P = Text; *P;) {
    char *End;
    unsigned long N = std::strtoul(P, &End, 10);
    if (End == P || N < 1 || N > WarpSize) {
      std::fprintf(stderr, "group sizes must be in 1..32: %s\n", Text);
      std::exit(2);
    }
    Sizes.push_back(unsigned(N));
    P = *End == ',' ? End + 1 : End;
  }
  return Sizes;
}

} // namespace

int main(int argc, char **argv) {
  unsigned Groups = argc > 1 ? unsigned(std::strtoul(argv[1], nullptr, 10)) : 1u << 16;
  unsigned Seed = argc > 2 ? unsigned(std::strtoul(argv[2], nullptr, 10)) : 5489u;
  bool Sync = argc > 3 ? std::atoi(argv[3]) != 0 : true;
  std::vector<unsigned> Sizes = parseSizes(argc > 4 ? argv[4] : "2,4,8,16,32");
  unsigned Resident = argc > 5 ? unsigned(std::strtoul(argv[5], nullptr, 10)) : 4;
  if (Groups == 0) {
    std::fprintf(stderr, "groups must be positive\n");
    return 2;
  }

  cudaDeviceProp Prop;
  CHECK(cudaGetDeviceProperties(&Prop, 0));
  int Driver = 0, ClockKHz = 0;
  CHECK(cudaDriverGetVersion(&Driver));
  CHECK(cudaDeviceGetAttribute(&ClockKHz, cudaDevAttrClockRate, 0));
  std::printf("# device %s, sm_%d%d, %d SMs, max SM clock %d MHz, driver %d.%d\n", Prop.name,
              Prop.major, Prop.minor, Prop.multiProcessorCount, ClockKHz / 1000, Driver / 1000,
              Driver % 1000 / 10);
  // Groups resident per SM: 4, one per scheduler, keeps a warp's iteration
  // time from depending on what its neighbours on the same scheduler do;
  // enforced by asking each block for that share of the SM's shared memory.
  size_t Bytes = SharedBytes;
  if (Resident > 0) {
    size_t Share = Prop.sharedMemPerMultiprocessor / Resident - Prop.reservedSharedMemPerBlock;
    Bytes = std::min(std::max(Bytes, Share - 64), Prop.sharedMemPerBlockOptin);
  }
  CHECK(cudaFuncSetAttribute(matrixPower, cudaFuncAttributeMaxDynamicSharedMemorySize, int(Bytes)));
  int PerSm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&PerSm, matrixPower, WarpSize, Bytes));
  std::printf("# groups %u per row, seed %u, group sync %s, one group per warp, 16x16 float in shared memory, "
              "%d groups resident per SM\n",
              Groups, Seed, Sync ? "on" : "off", PerSm);
  std::printf("dist,n,groups,simulated_mean,measured_mean,measured_sd,relative_difference,"
              "cycles_per_iteration\n");

  std::mt19937 MatrixGen(Seed);
  // Entries in [0, 2/16): row sums near 1, so powers neither vanish nor blow up.
  std::uniform_real_distribution<float> Entry(0.0f, 2.0f / Dim);
  std::vector<float> Pool(size_t(PoolMatrices) * Dim * Dim);
  for (float &X : Pool)
    X = Entry(MatrixGen);

  size_t Units = size_t(Groups) * WarpSize;
  float *DPool, *DChecksums;
  unsigned *DExponents;
  unsigned long long *DSimt, *DMimd;
  CHECK(cudaMalloc(&DPool, Pool.size() * sizeof(float)));
  CHECK(cudaMalloc(&DExponents, Units * sizeof(unsigned)));
  CHECK(cudaMalloc(&DSimt, Units * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&DMimd, Units * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&DChecksums, Units * sizeof(float)));
  CHECK(cudaMemcpy(DPool, Pool.data(), Pool.size() * sizeof(float), cudaMemcpyHostToDevice));

  std::vector<unsigned> Exponents(Units);
  std::vector<unsigned long long> Simt(Units), Mimd(Units);
  for (size_t D = 0; D < tableIDistributions().size(); ++D) {
    for (unsigned N : Sizes) {
      // Algorithm 1's exponents; a fresh generator and distribution per row,
      // so that each row is reproducible on its own.
      WorkDistribution W = tableIDistributions()[D];
      std::mt19937 Gen(Seed + 1000 * N);
      Moments Simulated;
      for (unsigned G = 0; G < Groups; ++G) {
        unsigned long long Max = 0, Sum = 0;
        for (unsigned L = 0; L < WarpSize; ++L) {
          unsigned P = L < N ? W.Draw(Gen) : 0;
          Exponents[size_t(G) * WarpSize + L] = P;
          Max = std::max<unsigned long long>(Max, P);
          Sum += P;
        }
        // All-zero groups lose nothing, as in the model.
        Simulated.add(Sum ? double(N) * double(Max) / double(Sum) : 1.0);
      }
      CHECK(cudaMemcpy(DExponents, Exponents.data(), Units * sizeof(unsigned),
                       cudaMemcpyHostToDevice));
      // A warm-up run, then the measured one.
      for (int Run = 0; Run < 2; ++Run)
        matrixPower<<<Groups, WarpSize, Bytes>>>(DPool, DExponents, N, Sync, DSimt, DMimd,
                                                        DChecksums);
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemcpy(Simt.data(), DSimt, Units * sizeof(unsigned long long),
                       cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(Mimd.data(), DMimd, Units * sizeof(unsigned long long),
                       cudaMemcpyDeviceToHost));

      Moments Measured;
      double MimdTotal = 0, Iterations = 0;
      for (unsigned G = 0; G < Groups; ++G) {
        double SimtCost = 0, MimdCost = 0, Work = 0;
        for (unsigned L = 0; L < N; ++L) {
          size_t U = size_t(G) * WarpSize + L;
          SimtCost += double(Simt[U]);
          MimdCost += double(Mimd[U]);
          Work += Exponents[U];
        }
        Measured.add(Work > 0 ? SimtCost / MimdCost : 1.0);
        MimdTotal += MimdCost;
        Iterations += Work;
      }
      std::printf("%s,%u,%u,%.6f,%.6f,%.6f,%.6f,%.1f\n", W.Spec, N, Groups, Simulated.mean(),
                  Measured.mean(), Measured.sd(),
                  std::fabs(Measured.mean() - Simulated.mean()) / Simulated.mean(),
                  MimdTotal / Iterations);
      std::fflush(stdout);
    }
  }
  CHECK(cudaFree(DPool));
  CHECK(cudaFree(DExponents));
  CHECK(cudaFree(DSimt));
  CHECK(cudaFree(DMimd));
  CHECK(cudaFree(DChecksums));
  return 0;
}
