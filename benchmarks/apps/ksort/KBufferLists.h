// The input of the ksort app: the per-pixel fragment lists of an
// order-independent-transparency k-buffer after the geometry pass, before
// the resolve. Every list has a fixed slot of Capacity fragments in one big
// array (list L at L * Capacity, the unused tail zero) and a fragment count.
// A fragment is a 24-bit depth, as a D24 depth buffer stores it, and a
// packed RGBA8 colour.
//
// Counts are the pixels' depth complexity, heavy-tailed: most pixels see a
// few layers of glass or smoke, a few look through a whole particle cloud or
// foliage, and the k-buffer keeps at most Capacity of them. A count is
// floor(TailScale / u) - (TailScale - 1) for u in (0, 1], truncated at
// Capacity: P(count >= x) = TailScale / (x + TailScale - 1), a Pareto tail
// of exponent 1 shifted to start at 1 (P(count >= 4) = 1/2, mean 9.9, 4.5%
// of the pixels at Capacity), decided by one correctly rounded division. Counts are drawn for
// every pixel independently: a warp holds 32 unrelated lists, as in a scene
// of fine clutter where a neighbouring pixel's complexity says little about
// one's own.
//
// The order in which a list's fragments arrived is its draw order, which
// decides the resolve's work: the geometry that reaches a pixel was drawn
// unsorted (RandomShare: any order), sorted front to back (FrontToBackShare:
// nearly ascending, as the sort was per object and objects overlap) or
// sorted back to front for blending (the rest: nearly descending, the
// insertion sort's worst case). "Nearly" is a local disorder: each fragment
// is swapped with one 1 to MaxDisplacement places further on with
// probability DisplacedShare. Coplanar fragments (decals, both faces of a
// sheet) share a depth: CoplanarShare of the fragments copy the depth of the
// next nearer one, so the resolve's sort must be stable to give one answer.
//
// Everything is drawn from one bench::Rng in list order: the input does not
// depend on the host's threads, compiler or math library (integer
// arithmetic and one division per list).
#pragma once

#include "../common/Random.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace ksort {

constexpr uint32_t Capacity = 64; // fragments a pixel's k-buffer holds
constexpr double TailScale = 3;
constexpr double RandomShare = 0.5, FrontToBackShare = 0.3; // the rest back to front
constexpr double DisplacedShare = 0.2, CoplanarShare = 0.05;
constexpr uint32_t MaxDisplacement = 3;
constexpr uint32_t DepthBits = 24;

struct alignas(8) Fragment {
  uint32_t Depth; // smaller is nearer; only the low DepthBits bits are used
  uint32_t Color; // RGBA8
};

struct Lists {
  std::vector<Fragment> Fragments; // count() * Capacity, list L from L * Capacity
  std::vector<uint32_t> Counts;    // 1 to Capacity fragments per list
  uint32_t count() const { return uint32_t(Counts.size()); }
};

namespace detail {

// A pixel's depth complexity: a shifted Pareto tail from 1, truncated at
// Capacity.
inline uint32_t drawCount(bench::Rng &R) {
  const double U = 1.0 - R.uniform01(); // (0, 1]
  const double Layers = std::floor(TailScale / U) - (TailScale - 1);
  return Layers >= Capacity ? Capacity : uint32_t(Layers);
}

// Swaps some fragments with one a few places further on.
inline void disorder(bench::Rng &R, Fragment *F, uint32_t N) {
  for (uint32_t I = 0; I + 1 < N; ++I)
    if (R.uniform01() < DisplacedShare)
      std::swap(F[I], F[std::min(N - 1, I + 1 + R.below(MaxDisplacement))]);
}

inline void writeList(bench::Rng &R, Fragment *F, uint32_t N) {
  uint32_t Depth[Capacity];
  for (uint32_t I = 0; I < N; ++I)
    Depth[I] = uint32_t(R.next() >> (64 - DepthBits));
  std::sort(Depth, Depth + N);
  for (uint32_t I = 1; I < N; ++I)
    if (R.uniform01() < CoplanarShare)
      Depth[I] = Depth[I - 1];
  for (uint32_t I = 0; I < N; ++I)
    F[I] = {Depth[I], uint32_t(R.next())};
  const double Order = R.uniform01();
  if (Order < RandomShare) {
    for (uint32_t I = N; I > 1; --I) // Fisher-Yates
      std::swap(F[I - 1], F[R.below(I)]);
    return;
  }
  if (Order >= RandomShare + FrontToBackShare)
    std::reverse(F, F + N);
  disorder(R, F, N);
}

} // namespace detail

inline Lists generateLists(uint32_t N, uint64_t Seed) {
  bench::Rng R(Seed);
  Lists Out;
  Out.Fragments.assign(size_t(N) * Capacity, Fragment{0, 0});
  Out.Counts.resize(N);
  for (uint32_t L = 0; L < N; ++L) {
    Out.Counts[L] = detail::drawCount(R);
    detail::writeList(R, Out.Fragments.data() + size_t(L) * Capacity, Out.Counts[L]);
  }
  return Out;
}

} // namespace ksort
