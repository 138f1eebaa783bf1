// Profile mode at scale (issue 14): launch sampling, the memory budget and
// the GPU compaction's exactness.
//
//   profile_scaling launches OUT   5 launches of tripLoop<<<8, 128>>> and one
//                                  of tripLoop<<<4, 64>>>; results to OUT
//   profile_scaling count PROFILE RECORDED
//                                  the profile holds RECORDED records of the
//                                  <<<8, 128>>> shape and one of the other,
//                                  and the tally says 5 seen
//   profile_scaling classes        many-class, few-class and one-class
//                                  launches, every thread's block counts
//                                  checked against their closed forms
//   profile_scaling branches       branch sampling: a launch of 2^20
//                                  threads counts branches in every 32nd
//                                  block, one of fewer in every block
//   profile_scaling features       feature columns of parameters and the
//                                  thread index, filled on the host
//   profile_scaling overhead N     N launches of a tiny kernel, the host time
//                                  per launch (launch sampling's cost)
//   profile_scaling overflow       16-bit counters: a few threads loop more
//                                  than 65535 times (the overflow list), then
//                                  more such threads than the list holds (the
//                                  record dropped, the next launch wide)
//   profile_scaling long           counts over 65534 in a small kernel and
//                                  in one that stores each count where it
//                                  is final, in whichever width the
//                                  environment sets (DIVOPT_PROFILE_COUNTERS)
#include "BbvCheck.h"
#include "divopt/Abi.h"

#include <chrono>
#include <cstring>
#include <fstream>
#include <vector>

using namespace bbvcheck;

__global__ void tripLoop(const int *trips, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < trips[t]; ++i)
    acc += float(i) * 0.5f + float(t);
  out[t] += acc;
}

// Every thread distinct: thread t runs the loop t times.
__global__ void distinct(float *out, unsigned n) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
#pragma unroll 1
  for (unsigned i = 0; i < t; ++i)
    acc += 1.0f;
  if (t < n)
    out[t] = acc;
}

// t % m classes.
__global__ void modClasses(float *out, unsigned m) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
#pragma unroll 1
  for (unsigned i = 0; i < t % m; ++i)
    acc += 2.0f;
  out[t] = acc;
}

// Sixteen loops, bit b of t % m running loop b b + 2 times (one trip
// would be no loop, and bit 0 a select: half the classes): counters enough
// (abi::LargeProfileCounters) that the clone sums hashes and the compaction
// groups the threads by them; t % m classes.
__global__ void bitClasses(float *out, unsigned m) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned k = t % m;
  float acc = 0;
#pragma unroll
  for (unsigned b = 0; b < 16; ++b)
    if (k & (1u << b)) {
#pragma unroll 1
      for (unsigned i = 0; i <= b + 1; ++i)
        acc = acc * 0.5f + float(i);
    }
  out[t] = acc;
}

// One class: every thread runs the same path.
__global__ void uniform(float *out, int trips) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < trips; ++i)
    acc += 3.0f;
  out[t] = acc;
}

// Trips of the overflow test: a few threads (t % 97 == 0, and threads 1
// and 2 at the 16-bit edge) over 65534, the rest small.
__host__ __device__ inline uint32_t fewLongTrips(uint32_t t) {
  if (t == 1)
    return 65535; // the marker's value: must take the overflow list
  if (t == 2)
    return 65534; // the largest count a u16 slot holds
  return t % 97 == 0 ? 70000 + t : t % 50;
}
// Every fourth thread over 65534: more than the list's capacity.
__host__ __device__ inline uint32_t manyLongTrips(uint32_t t) {
  return t % 4 == 0 ? 66000 + t : t % 7;
}

// Loop b of bitLong: b + 2 trips where bit b of t is set, and loop 15 (bit
// 15 is never set in its launch) fewLong's trips.
__host__ __device__ inline uint32_t bitLongTrips(uint32_t t, unsigned b) {
  if (b == 15)
    return fewLongTrips(t);
  return t >> b & 1 ? b + 2 : 0;
}

__global__ void fewLong(float *out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
#pragma unroll 1
  for (unsigned i = 0; i < fewLongTrips(t); ++i)
    acc += 1.0f;
  out[t] = acc;
}

__global__ void manyLong(float *out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
#pragma unroll 1
  for (unsigned i = 0; i < manyLongTrips(t); ++i)
    acc += 1.0f;
  out[t] = acc;
}

// Sixteen loops: counters enough (abi::LargeProfileCounters) that the clone
// stores each count where it is final, in the middle of the kernel, and
// sums hashes; loop 15's count goes past 65534 in a few threads.
__global__ void bitLong(float *out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
#pragma unroll
  for (unsigned b = 0; b < 16; ++b) {
#pragma unroll 1
    for (unsigned i = 0; i < bitLongTrips(t, b); ++i)
      acc = acc * 0.5f + float(i);
  }
  out[t] = acc;
}

// Odd and even lanes part ways: the branch on t's parity diverges in every
// warp, once; odd threads then loop t % 16 times (a loop keeps the branch
// from becoming a select).
__global__ void parityBranch(float *out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  if (t & 1) {
#pragma unroll 1
    for (unsigned i = 0; i < (t & 15); ++i)
      acc += sqrtf(float(i + t));
  }
  out[t] = acc;
}

// Features that are parameters (i64, u16, i32) and the thread index: their
// columns are filled on the host (runtime/profile/HostFeatures.h).
__global__ void paramFeatures(long long N, unsigned short S, int Neg, float *out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
#pragma unroll 1
  for (long long i = 0; i < N; ++i)
    acc += 1.0f;
#pragma unroll 1
  for (unsigned i = 0; i < S; ++i)
    acc = acc * 0.5f + 2.0f;
#pragma unroll 1
  for (int i = Neg; i < 0; ++i)
    acc = acc * 0.25f + 3.0f;
#pragma unroll 1
  for (unsigned i = 0; i < (t & 3); ++i)
    acc = acc * 0.5f + 7.0f;
  out[t] = acc;
}

__global__ void tiny(int *x) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    ++*x;
}

namespace {

const int Threads = 8 * 128;

int launches(const char *Out) {
  std::vector<int> trips(Threads);
  for (int t = 0; t < Threads; ++t)
    trips[t] = (t * 5) % 17;
  int *dTrips;
  float *dOut;
  CHECK(cudaMalloc(&dTrips, Threads * sizeof(int)));
  CHECK(cudaMalloc(&dOut, Threads * sizeof(float)));
  CHECK(cudaMemcpy(dTrips, trips.data(), Threads * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dOut, 0, Threads * sizeof(float)));
  for (int r = 0; r < 5; ++r)
    tripLoop<<<8, 128>>>(dTrips, dOut);
  tripLoop<<<4, 64>>>(dTrips, dOut);
  CHECK(cudaGetLastError());
  std::vector<float> out(Threads);
  CHECK(cudaMemcpy(out.data(), dOut, Threads * sizeof(float), cudaMemcpyDeviceToHost));
  std::ofstream(Out, std::ios::binary)
      .write(reinterpret_cast<const char *>(out.data()), out.size() * sizeof(float));
  return 0;
}

int count(const char *Path, unsigned Expected) {
  std::vector<divopt::TallyRecord> Tallies;
  std::vector<divopt::LaunchProfile> All;
  try {
    All = divopt::readProfileFile(Path, &Tallies);
  } catch (const std::exception &E) {
    std::printf("FAIL %s\n", E.what());
    return 1;
  }
  unsigned Big = 0, Small = 0;
  std::vector<int> trips(Threads);
  for (int t = 0; t < Threads; ++t)
    trips[t] = (t * 5) % 17;
  for (const auto *P : launchesOf(All, "tripLoop")) {
    if (P->Header.Grid[0] == 8) {
      ++Big;
      expect(hasBlockCounting(*P, [&](uint64_t t) { return uint32_t(trips[t]); }),
             "tripLoop<<<8, 128>>> launch " + std::to_string(P->Header.LaunchIndex) +
                 ": the body runs trips[t] times");
    } else {
      ++Small;
    }
  }
  expect(Big == Expected, "tripLoop<<<8, 128>>>: " + std::to_string(Big) + " records, expected " +
                              std::to_string(Expected));
  expect(Small == 1, "tripLoop<<<4, 64>>>: one record");
  expect(Tallies.size() == 1, "one tally record (" + std::to_string(Tallies.size()) + ")");
  if (Tallies.size() == 1) {
    bool Found = false;
    for (const auto &T : Tallies[0].Tallies)
      if (T.Kernel.find("tripLoop") != std::string::npos && T.Grid[0] == 8) {
        Found = true;
        expect(T.Seen == 5 && T.Recorded == Expected,
               "tally: " + std::to_string(T.Seen) + " seen, " + std::to_string(T.Recorded) +
                   " recorded");
      }
    expect(Found, "the tally names tripLoop<<<8, 128>>>");
  }
  return finish();
}

int classes() {
  // Many classes: 2^16 threads, every one distinct (16-bit ids); 3 classes
  // (2-bit ids) and 1000 (10-bit ids, which straddle 32-bit words); one
  // class (no ids at all).
  const unsigned Big = 1 << 20;
  float *dOut;
  CHECK(cudaMalloc(&dOut, Big * sizeof(float)));
  const unsigned Distinct = 1 << 16;
  distinct<<<Distinct / 256, 256>>>(dOut, Distinct);
  modClasses<<<Big / 256, 256>>>(dOut, 3);
  modClasses<<<Big / 1024, 512>>>(dOut, 1000);
  uniform<<<Big / 1024, 1024>>>(dOut, 7);
  bitClasses<<<Big / 256, 256>>>(dOut, 1000);
  // Every thread distinct again, with the clone's hashes and more than 32
  // counters a class.
  bitClasses<<<Distinct / 256, 256>>>(dOut, Distinct);
  // Odd sizes: 1000 threads in blocks of 100 (the last word of ids partial).
  distinct<<<10, 100>>>(dOut, 1000);
  CHECK(cudaGetLastError());
  auto All = readProfile();

  auto Check = [&](const char *Kernel, uint64_t Threads, uint32_t ExpectedClasses,
                   std::function<uint32_t(uint64_t)> Trips) {
    bool Found = false;
    for (const auto *P : launchesOf(All, Kernel)) {
      if (P->Header.threads() != Threads)
        continue;
      Found = true;
      std::string Name = std::string(Kernel) + " (" + std::to_string(Threads) + " threads)";
      expect(P->NumClasses == ExpectedClasses, Name + ": " + std::to_string(P->NumClasses) +
                                                   " classes, expected " +
                                                   std::to_string(ExpectedClasses));
      expect(hasBlockCounting(*P, Trips), Name + ": the loop body's count is exact for every thread");
      expect(hasBlockCounting(*P, [](uint64_t) { return 1u; }), Name + ": the entry runs once");
    }
    expect(Found, std::string(Kernel) + " (" + std::to_string(Threads) + " threads): recorded");
  };
  Check("distinct", Distinct, Distinct, [](uint64_t t) { return uint32_t(t); });
  Check("modClasses", Big, 3, [](uint64_t t) { return uint32_t(t % 3); });
  Check("modClasses", Big / 2, 1000, [](uint64_t t) { return uint32_t(t % 1000); });
  Check("uniform", Big, 1, [](uint64_t) { return 7u; });
  Check("distinct", 1000, 1000, [](uint64_t t) { return uint32_t(t); });
  // Bit 3's loop body runs 5 times where bit 3 of t % 1000 is set.
  Check("bitClasses", Big, 1000, [](uint64_t t) { return (t % 1000) & 8 ? 5u : 0u; });
  Check("bitClasses", Distinct, Distinct, [](uint64_t t) { return t & 8 ? 5u : 0u; });
  // There, every loop's body: every class's counters gathered whole.
  for (const auto *P : launchesOf(All, "bitClasses"))
    for (unsigned Bit = 0; P->Header.threads() == Distinct && Bit < 16; ++Bit)
      expect(hasBlockCounting(*P, [Bit](uint64_t t) { return t >> Bit & 1 ? Bit + 2 : 0u; }),
             "bitClasses (65536 threads): loop " + std::to_string(Bit) +
                 "'s body count is exact for every thread");
  return finish();
}

int overflow() {
  const unsigned Few = 64 * 256, Many = 16 * 256;
  float *dOut;
  CHECK(cudaMalloc(&dOut, Few * sizeof(float)));
  fewLong<<<Few / 256, 256>>>(dOut);
  manyLong<<<Many / 256, 256>>>(dOut);
  CHECK(cudaDeviceSynchronize());
  // The copier has seen the first manyLong launch (dropped in 16-bit mode)
  // once the flush returns: the second is profiled, in 32-bit mode.
  if (divopt_profile_flush() != 0)
    std::printf("FAIL divopt_profile_flush\n");
  manyLong<<<Many / 256, 256>>>(dOut);
  CHECK(cudaGetLastError());
  auto All = readProfile();
  auto F = launchesOf(All, "fewLong");
  expect(F.size() == 1, "fewLong: one record");
  for (const auto *P : F) {
    expect(hasBlockCounting(*P, [](uint64_t t) { return fewLongTrips(uint32_t(t)); }),
           "fewLong: the loop body's count is exact for every thread, over 65534 too");
    expect(hasBlockCounting(*P, [](uint64_t) { return 1u; }), "fewLong: the entry runs once");
  }
  auto M = launchesOf(All, "manyLong");
  expect(M.size() == 1, "manyLong: one record (" + std::to_string(M.size()) + ")");
  for (const auto *P : M) {
    expect(P->Header.LaunchIndex == 1, "manyLong: the record is the second launch's");
    expect(hasBlockCounting(*P, [](uint64_t t) { return manyLongTrips(uint32_t(t)); }),
           "manyLong: the loop body's count is exact for every thread");
  }
  return finish();
}

// Counts past 65534 at the returns (fewLong) and where they are final
// (bitLong), exact in narrow mode (the overflow list: fewer long threads
// than it holds) and in wide mode (the u32 array).
int longCounts() {
  const unsigned T = 64 * 256;
  float *dOut;
  CHECK(cudaMalloc(&dOut, T * sizeof(float)));
  fewLong<<<T / 256, 256>>>(dOut);
  bitLong<<<T / 256, 256>>>(dOut);
  CHECK(cudaGetLastError());
  auto All = readProfile();
  auto F = launchesOf(All, "fewLong");
  expect(F.size() == 1, "fewLong: one record");
  for (const auto *P : F)
    expect(hasBlockCounting(*P, [](uint64_t t) { return fewLongTrips(uint32_t(t)); }),
           "fewLong: the loop body's count is exact for every thread, over 65534 too");
  auto B = launchesOf(All, "bitLong");
  expect(B.size() == 1, "bitLong: one record");
  for (const auto *P : B) {
    expect(P->Kernel.Counters.size() >= divopt::abi::LargeProfileCounters,
           "bitLong: " + std::to_string(P->Kernel.Counters.size()) +
               " counters, each stored where final");
    for (unsigned Loop : {3u, 14u, 15u})
      expect(hasBlockCounting(*P, [Loop](uint64_t t) { return bitLongTrips(uint32_t(t), Loop); }),
             "bitLong: loop " + std::to_string(Loop) + "'s body count is exact for every thread");
  }
  return finish();
}

int overhead(unsigned N) {
  int *dX;
  CHECK(cudaMalloc(&dX, sizeof(int)));
  CHECK(cudaMemset(dX, 0, sizeof(int)));
  tiny<<<1, 32>>>(dX); // the profiled one (default sampling), or a warm-up
  CHECK(cudaDeviceSynchronize());
  auto Start = std::chrono::steady_clock::now();
  for (unsigned I = 0; I < N; ++I)
    tiny<<<1, 32>>>(dX);
  auto Issued = std::chrono::steady_clock::now();
  CHECK(cudaDeviceSynchronize());
  int X = 0;
  CHECK(cudaMemcpy(&X, dX, sizeof(int), cudaMemcpyDeviceToHost));
  double Us = std::chrono::duration<double, std::micro>(Issued - Start).count() / N;
  std::printf("{\"launches\": %u, \"host_us_per_launch\": %.3f, \"count\": %d}\n", N, Us, X);
  return X == int(N) + 1 ? 0 : 1;
}

// Branch sampling (abi::BranchSamplePeriod): a launch of 2^20 threads counts
// its branches in every 32nd thread block, one just under it in all; the
// block counts are exact in both.
int branches() {
  const unsigned Block = 256, WarpsPerBlock = Block / 32, Big = 4096, Small = 4095;
  float *dOut;
  CHECK(cudaMalloc(&dOut, size_t(Big) * Block * sizeof(float)));
  parityBranch<<<Big, Block>>>(dOut);
  parityBranch<<<Small, Block>>>(dOut);
  CHECK(cudaGetLastError());
  auto All = readProfile();
  auto Launches = launchesOf(All, "parityBranch");
  expect(Launches.size() == 2, "two records of parityBranch");
  for (const divopt::LaunchProfile *P : Launches) {
    uint64_t Blocks = P->Header.Grid[0], Threads = P->Header.threads();
    uint64_t Counted = divopt::branchCountedBlocks(P->Kernel, Threads, Blocks);
    std::string Name = "parityBranch<<<" + std::to_string(Blocks) + ", 256>>>";
    expect(P->Kernel.HasBranchSampling, Name + ": the notes say how branches are sampled");
    expect(Counted == (Blocks == Big ? Big / divopt::abi::BranchSamplePeriod : Small),
           Name + ": branches counted in " + std::to_string(Counted) + " blocks");
    expect(hasBranch(*P, Counted * WarpsPerBlock, Counted * WarpsPerBlock),
           Name + ": every counted warp diverges once;" + branchList(*P));
    expect(hasBlockCounting(*P, [](uint64_t t) { return uint32_t(t & 1 ? t & 15 : 0); }),
           Name + ": the loop body runs t % 16 times in odd threads, exact in every thread");
  }
  return finish();
}

// Feature columns known on the host: each record's values are the launch's
// parameters as the feature clone would convert them (a negative i32 and
// i64 stay negative, a u16 above 2^15 stays positive) and the thread index.
int features() {
  const unsigned Blocks = 8, Block = 128, T = Blocks * Block;
  float *dOut;
  CHECK(cudaMalloc(&dOut, T * sizeof(float)));
  struct Args {
    long long N;
    unsigned short S;
    int Neg;
  };
  const Args Launches[] = {{3, 5, -2}, {-(1ll << 40), 40000, -7}};
  for (const Args &A : Launches)
    paramFeatures<<<Blocks + (&A - Launches), Block>>>(A.N, A.S, A.Neg, dOut);
  CHECK(cudaGetLastError());
  auto All = readProfile();
  auto Records = launchesOf(All, "paramFeatures");
  expect(Records.size() == 2, "two records of paramFeatures");
  for (const divopt::LaunchProfile *P : Records) {
    const Args &A = Launches[P->Header.Grid[0] - Blocks];
    std::string Name = "paramFeatures<<<" + std::to_string(P->Header.Grid[0]) + ", 128>>>";
    expect(P->NumFeatures == P->Kernel.Features.size() && P->NumFeatures >= 4,
           Name + ": " + std::to_string(P->NumFeatures) + " feature columns");
    unsigned Params = 0, Tids = 0;
    for (unsigned F = 0; F < P->NumFeatures; ++F) {
      const divopt::FeatureNote &Note = P->Kernel.Features[F];
      bool Tid = Note.K == divopt::FeatureNote::Kind::ThreadId;
      double Param = Note.Param == 0 ? double(A.N) : Note.Param == 1 ? double(A.S) : double(A.Neg);
      bool Equal = true;
      for (uint64_t t = 0; t < P->Header.threads() && Equal; ++t)
        Equal = P->feature(F, t) == (Tid ? double(t) : Param);
      Params += !Tid && Note.K == divopt::FeatureNote::Kind::ScalarParam;
      Tids += Tid;
      expect(Equal, Name + ": feature " + Note.Expr + " (" + Note.Type + ") is " +
                        (Tid ? std::string("the thread index") : std::to_string(Param)) +
                        " in every thread");
    }
    expect(Params == 3 && Tids == 1, Name + ": the three parameters and the thread index");
  }
  return finish();
}

} // namespace

int main(int argc, char **argv) {
  std::string Mode = argc > 1 ? argv[1] : "";
  if (Mode == "launches" && argc == 3)
    return launches(argv[2]);
  if (Mode == "count" && argc == 4)
    return count(argv[2], unsigned(std::atoi(argv[3])));
  if (Mode == "classes")
    return classes();
  if (Mode == "overflow")
    return overflow();
  if (Mode == "long")
    return longCounts();
  if (Mode == "branches")
    return branches();
  if (Mode == "features")
    return features();
  if (Mode == "overhead" && argc == 3)
    return overhead(unsigned(std::atoi(argv[2])));
  std::fprintf(stderr, "usage: profile_scaling launches OUT | count PROFILE N | classes | overflow | long | branches | features | overhead N\n");
  return 2;
}
