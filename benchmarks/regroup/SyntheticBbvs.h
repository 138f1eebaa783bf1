// Synthetic launches for the regrouping benchmark, block-major like a
// profile. Three shapes of thread behaviour:
// - cases:    every thread one of 256 paths (seed 002's MarchingCubes: one
//             BBV per cube case); few distinct BBVs.
// - loop:     a loop whose trip count is geometric (mean 20) with an if on a
//             per-thread bit inside, repeated over the blocks; hundreds of
//             distinct BBVs, like the shipped Collatz profile (662 of 32768).
// - distinct: random counts, every BBV different: the worst case.
// - classes:K: K random BBVs, each thread one of them at random, so nearly
//             every warp is divergent: the benchmark apps' launches by their
//             number of distinct BBVs (docs/bench.md).
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace divopt::bench {

struct SyntheticBbvs {
  uint32_t Threads = 0, Blocks = 0;
  std::vector<uint32_t> Counts; // counts[bb * Threads + t]
  std::vector<double> Latency;  // cycles per block
};

inline SyntheticBbvs makeBbvs(const std::string &Shape, uint32_t Threads, uint32_t Blocks,
                              uint32_t Seed = 1) {
  SyntheticBbvs S{Threads, Blocks, std::vector<uint32_t>(uint64_t(Threads) * Blocks), {}};
  std::mt19937_64 Rng(Seed);
  for (uint32_t Bb = 0; Bb < Blocks; ++Bb)
    S.Latency.push_back(double(4 + Rng() % 60));
  auto Set = [&](uint32_t Bb, uint32_t T, uint32_t C) { S.Counts[uint64_t(Bb) * Threads + T] = C; };
  if (Shape == "cases") {
    std::vector<uint32_t> Paths(256 * Blocks);
    for (uint32_t &C : Paths)
      C = Rng() % 16;
    for (uint32_t T = 0; T < Threads; ++T) {
      uint32_t P = Rng() % 256;
      for (uint32_t Bb = 0; Bb < Blocks; ++Bb)
        Set(Bb, T, Paths[P * Blocks + Bb]);
    }
  } else if (Shape == "loop") {
    std::geometric_distribution<uint32_t> Trips(1.0 / 20);
    for (uint32_t T = 0; T < Threads; ++T) {
      uint32_t N = Trips(Rng), Bit = Rng() % 2;
      for (uint32_t Bb = 0; Bb < Blocks; ++Bb) {
        uint32_t Seg = Bb / 4, Trip = Seg % 2 ? N / 2 : N;
        uint32_t Counts[4] = {Trip + 1, Trip, Bit ? Trip : 0, Bit ? 0 : Trip};
        Set(Bb, T, Counts[Bb % 4]);
      }
    }
  } else if (Shape.rfind("classes:", 0) == 0) {
    uint32_t K = uint32_t(std::stoul(Shape.substr(8)));
    std::vector<uint32_t> Rows(uint64_t(K) * Blocks);
    for (uint32_t &C : Rows)
      C = Rng() % 64;
    for (uint32_t T = 0; T < Threads; ++T) {
      uint64_t Row = (Rng() % K) * Blocks;
      for (uint32_t Bb = 0; Bb < Blocks; ++Bb)
        Set(Bb, T, Rows[Row + Bb]);
    }
  } else { // distinct
    for (uint32_t T = 0; T < Threads; ++T)
      for (uint32_t Bb = 0; Bb < Blocks; ++Bb)
        Set(Bb, T, uint32_t(Rng() % 1000));
  }
  return S;
}

} // namespace divopt::bench
