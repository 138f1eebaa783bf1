// What `divopt report`'s statistics cost on a launch of the size of issue
// 14's kernel, held in compact form: 20M threads in blocks of 256, 203 basic
// blocks, and a number of classes (default 200,000) whose counts of 0 to 4
// and whose threads are drawn at random, so that nearly every warp holds 32
// classes (the costliest case: no warp is added once for its class).
//   bench-profile-report-stats [classes=200000]
// Prints one line: the classes, computeLaunchStats's wall time, the warps
// that diverged and the launch's divergence cost.
#include "profile/DivergenceStats.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

using namespace divopt;

int main(int argc, char **argv) {
  long Classes = argc > 1 ? std::atol(argv[1]) : 200000;
  if (argc > 2 || Classes <= 0 || Classes > 20000000) {
    std::fprintf(stderr, "usage: bench-profile-report-stats [classes in 1..20000000]\n");
    return 2;
  }
  constexpr unsigned Blocks = 203, BlockThreads = 256;
  constexpr uint64_t Threads = 20000000ull / BlockThreads * BlockThreads;
  LaunchProfile P;
  for (unsigned I = 0; I < Blocks; ++I) {
    BlockNote B;
    B.Id = I;
    B.Instructions = 3;
    P.Kernel.Blocks.push_back(B);
  }
  P.Header.Grid = {uint32_t(Threads / BlockThreads), 1, 1};
  P.Header.Block = {BlockThreads, 1, 1};
  P.NumClasses = uint32_t(Classes);
  std::mt19937 Random(1);
  P.ClassCounts.resize(uint64_t(Classes) * Blocks);
  for (uint32_t &C : P.ClassCounts)
    C = Random() % 5;
  P.ClassOf.resize(Threads);
  for (uint32_t &C : P.ClassOf)
    C = Random() % uint32_t(Classes);

  auto Start = std::chrono::steady_clock::now();
  LaunchStats S = computeLaunchStats(P);
  double Ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
  std::printf("classes %ld: computeLaunchStats %.0f ms, %llu of %llu warps divergent, cost %.6g\n",
              Classes, Ms, (unsigned long long)S.DivergentWarps, (unsigned long long)S.Warps,
              S.DivergenceCost);
  return 0;
}
