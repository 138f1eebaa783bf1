// One walker's random walk, shared by the kernels and the CPU reference.
//
// Each walker has its own counter-based generator: its k-th number is
// mix64(Key + k * Gamma), Key a hash of the seed and the walker's number, so
// a walk depends on nothing but (seed, walker), whichever thread runs it.
// Two keys per walker: one for moves, one for absorption. Each step moves
// one unit on the square lattice; after each step the walker is absorbed with
// probability 1/256 (a byte of its absorption stream is zero), so path
// lengths are geometric with mean 256, and eight steps share one absorption
// number. pathLength finds a walk's length from the absorption stream alone,
// eight steps per hash: the hand-written variant's key.
#pragma once
#include <cstdint>

namespace walk {

constexpr uint64_t Gamma = 0x9e3779b97f4a7c15ull;

// The splitmix64 finalizer: a bijection of 64-bit words that mixes well.
__host__ __device__ inline uint64_t mix64(uint64_t X) {
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ull;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebull;
  return X ^ (X >> 31);
}

__host__ __device__ inline uint64_t moveKey(uint64_t Seed, uint32_t Walker) {
  return mix64(mix64(Seed) + 2 * uint64_t(Walker));
}

__host__ __device__ inline uint64_t absorbKey(uint64_t Seed, uint32_t Walker) {
  return mix64(mix64(Seed) + 2 * uint64_t(Walker) + 1);
}

struct End {
  int32_t X, Y;
  uint32_t Steps;
};

__host__ __device__ inline End randomWalk(uint64_t Seed, uint32_t Walker, int32_t X, int32_t Y) {
  const uint64_t Moves = moveKey(Seed, Walker), Absorption = absorbKey(Seed, Walker);
  uint64_t Absorb = 0;
  uint32_t Steps = 0;
  for (;;) {
    if (Steps % 8 == 0)
      Absorb = mix64(Absorption + (Steps / 8) * Gamma);
    uint64_t Move = mix64(Moves + Steps * Gamma);
    int32_t Sign = Move & 1 ? 1 : -1;
    if (Move & 2)
      X += Sign;
    else
      Y += Sign;
    ++Steps;
    bool Absorbed = (Absorb & 0xff) == 0;
    Absorb >>= 8;
    if (Absorbed)
      return End{X, Y, Steps};
  }
}

// The number of steps randomWalk takes for this walker.
__host__ __device__ inline uint32_t pathLength(uint64_t Seed, uint32_t Walker) {
  const uint64_t Absorption = absorbKey(Seed, Walker);
  for (uint32_t Block = 0;; ++Block) {
    uint64_t Absorb = mix64(Absorption + Block * Gamma);
    // The lowest byte flagged here is the lowest zero byte (a borrow only
    // runs upwards from a zero byte).
    uint64_t ZeroBytes = (Absorb - 0x0101010101010101ull) & ~Absorb & 0x8080808080808080ull;
    if (ZeroBytes)
      return 8 * Block + __builtin_ctzll(ZeroBytes) / 8 + 1;
  }
}

} // namespace walk
