// The ufind app's disjoint-set forest: what a sequence of union-by-index
// links without rank or path compression leaves in the parent array of a
// connected-components code, Elements = 2^25 uint32 parents (128 MiB, 2.6
// times the GPU's L2), Parent[r] == r for a root.
//
// The links are made on logical indices, as a sweep over a graph with
// locality would make them (a mesh or a road network numbered along the
// sweep): the indices are split into runs of consecutive ones, each run a
// component. Run lengths are drawn with P(length >= s) = 4 / s^2 (s >= 2:
// 56% of the runs have 2 elements, the mean is 3.6), redrawn above MaxRun
// (2^14). Each run draws a density p uniform in {0, 1/256, ..., 255/256};
// the sweep visits its indices u in ascending order and unions u with
// u + 8, u + 7, ..., u + 2, each link present with probability p, then with
// u + 1 (always, so the run is connected), the partners that lie in the
// run. A union finds both roots (the largest index of each set) and links
// the root with the smaller index under the one with the larger (union by
// index), the classic way to grow long paths: where u is its set's largest
// index, the link to u + 1 puts the whole set one step deeper. A sparse run
// (p near 0) becomes a chain as long as the run; a dense one a shallower
// tree, since a long link first makes its far end the root and the shorter
// ones then hang their partners right under it. So most elements are 0 to
// 5 steps from their root, and a tail in long sparse runs hundreds to
// thousands (the statistics are in the README).
//
// The forest is stored under a seeded bijection of the 25-bit ids
// (Relabel: multiplications by odd constants, xor-shifts and the seed's
// addends, all invertible mod 2^25), as a graph whose vertices are numbered
// without locality: a step of a find goes to an unrelated line. The links
// are made on logical indices in blocks of BlockElements (the last run of a
// block is cut at its end), each block from its own bench::itemRng stream
// with integer draws only, then scattered under the relabelling (one random
// write an element), so the forest does not depend on the number of host
// threads. The sets' roots during the build come from a second, compressed
// union-find local to the block, which gives the same links as finds
// without compression.
#pragma once

#include "../common/IntegerSqrt.h"
#include "../common/ParallelFor.h"
#include "../common/Random.h"

#include <cstdint>
#include <vector>

namespace ufind {

constexpr uint32_t ElementBits = 25;
constexpr uint32_t Elements = 1u << ElementBits;
constexpr uint32_t IdMask = Elements - 1;
constexpr uint32_t BlockElements = 1u << 15;
constexpr uint32_t Blocks = Elements / BlockElements;
constexpr uint32_t MaxRun = 1u << 14;
// P(run length >= s) = RunScale / s^2.
constexpr uint64_t RunScale = 4;
// Links from u to u + 2 ... u + MaxReach (each with the run's probability)
// and to u + 1; one 64-bit draw per index gives a byte per optional link.
constexpr uint32_t MaxReach = 8;
static_assert(MaxReach - 1 <= 8, "one byte of a 64-bit draw per optional link");
static_assert(MaxRun <= BlockElements, "a run lies within a block");

// The bijection between logical indices and stored ids, and its inverse.
struct Relabel {
  static constexpr uint32_t Mul1 = 0x2c1b3c6du, Mul2 = 0x297a2d39u, Mul3 = 0x0165667bu;
  static constexpr uint32_t Shift1 = 12, Shift2 = 13, Shift3 = 11;
  uint32_t Add1, Add2;

  explicit Relabel(uint64_t Seed) {
    // A stream apart from the blocks' and the queries' (bench::itemRng's).
    bench::Rng R(Seed ^ 0x72656c6162656c73ull);
    Add1 = uint32_t(R.next() >> 32) & IdMask;
    Add2 = uint32_t(R.next() >> 32) & IdMask;
  }

  uint32_t operator()(uint32_t X) const {
    X = (X * Mul1 + Add1) & IdMask;
    X ^= X >> Shift1;
    X = (X * Mul2 + Add2) & IdMask;
    X ^= X >> Shift2;
    X = (X * Mul3) & IdMask;
    X ^= X >> Shift3;
    return X;
  }

  uint32_t inverse(uint32_t X) const {
    X = unshift(X, Shift3);
    X = (X * inverseOf(Mul3)) & IdMask;
    X = unshift(X, Shift2);
    X = ((X - Add2) * inverseOf(Mul2)) & IdMask;
    X = unshift(X, Shift1);
    X = ((X - Add1) * inverseOf(Mul1)) & IdMask;
    return X;
  }

private:
  // The inverse of an odd number mod 2^32 (Newton's iteration: each step
  // doubles the correct low bits, 3 of them to start).
  static constexpr uint32_t inverseOf(uint32_t Odd) {
    uint32_t Inv = Odd;
    for (int K = 0; K < 5; ++K)
      Inv *= 2 - Odd * Inv;
    return Inv;
  }
  // The inverse of Y = X ^ (X >> Shift) on 25 bits.
  static uint32_t unshift(uint32_t Y, uint32_t Shift) {
    uint32_t X = Y;
    for (uint32_t Known = Shift; Known < ElementBits; Known += Shift)
      X = Y ^ (X >> Shift);
    return X;
  }
};

struct Forest {
  std::vector<uint32_t> Parent;  // by stored id; Parent[r] == r for a root
  std::vector<uint32_t> Logical; // the same links by logical index
  Relabel Id;                    // logical index -> stored id
};

namespace detail {

// A run length s with P(s >= x) = RunScale / x^2: floor(sqrt(RunScale / u))
// for u = K / 2^53 in (0, 1], one 64-bit division.
inline uint32_t drawRunLength(bench::Rng &R) {
  for (;;) {
    const uint64_t K = (R.next() >> 11) + 1;
    const uint64_t Length = bench::integerSqrt((RunScale << 53) / K);
    if (Length <= MaxRun)
      return uint32_t(Length);
  }
}

// Builds the links of logical block B into Logical. Top is the block's
// compressed union-find over local indices (BlockElements entries): a set's
// representative there is its largest index, its root in the forest too.
inline void buildBlock(std::vector<uint32_t> &Logical, uint64_t Seed, uint32_t B,
                       std::vector<uint32_t> &Top) {
  const uint32_t First = B * BlockElements;
  for (uint32_t L = 0; L < BlockElements; ++L) {
    Top[L] = L;
    Logical[First + L] = First + L;
  }
  auto find = [&](uint32_t L) {
    while (Top[L] != L) {
      Top[L] = Top[Top[L]];
      L = Top[L];
    }
    return L;
  };
  auto unite = [&](uint32_t A, uint32_t C) {
    uint32_t RootA = find(A), RootC = find(C);
    if (RootA == RootC)
      return;
    if (RootA > RootC) {
      const uint32_t Swap = RootA;
      RootA = RootC;
      RootC = Swap;
    }
    Top[RootA] = RootC;
    Logical[First + RootA] = First + RootC;
  };
  bench::Rng R = bench::itemRng(Seed, B);
  for (uint32_t Start = 0; Start < BlockElements;) {
    uint32_t Length = drawRunLength(R);
    if (Length > BlockElements - Start)
      Length = BlockElements - Start;
    const uint32_t End = Start + Length;
    const uint32_t Density = R.below(256); // p in 1/256
    for (uint32_t U = Start; U < End; ++U) {
      const uint64_t Draw = R.next();
      for (uint32_t Reach = MaxReach; Reach >= 2; --Reach)
        if (U + Reach < End && (Draw >> (8 * (Reach - 2)) & 255) < Density)
          unite(U, U + Reach);
      if (U + 1 < End)
        unite(U, U + 1);
    }
    Start = End;
  }
}

} // namespace detail

// The links by logical index, block by block, then stored under the
// relabelling: Parent[Id(x)] = Id(Logical[x]), each element written once.
inline Forest generateForest(uint64_t Seed) {
  Forest F{std::vector<uint32_t>(Elements), std::vector<uint32_t>(Elements), Relabel(Seed)};
  bench::parallelFor(Blocks, [&](size_t Begin, size_t End) {
    std::vector<uint32_t> Top(BlockElements);
    for (size_t B = Begin; B < End; ++B)
      detail::buildBlock(F.Logical, Seed, uint32_t(B), Top);
  });
  bench::parallelFor(Elements, [&](size_t Begin, size_t End) {
    for (size_t X = Begin; X < End; ++X)
      F.Parent[F.Id(uint32_t(X))] = F.Id(F.Logical[X]);
  });
  return F;
}

} // namespace ufind
