// The point side of the pip app's spatial join: GPS fixes in the order they
// arrive, from many devices at once, so consecutive points are unrelated
// places. 90% of them come from cities: 4,096 centres, each a uniform point
// of the bounding box of a uniformly drawn polygon (so a coastal city spills
// points into its harbour), popular in proportion to rank^-0.7 (the largest
// draws 2.7% of the city points); a point is the centre plus a Gaussian
// offset whose spread is the city's (lognormal, median 0.4 pitch, sigma 0.8,
// clamped to [0.05, 3] pitches). The other 10% are uniform over the world,
// land and sea (ships, bad fixes). A coordinate that falls outside the world
// is drawn again.
//
// The cities come from one bench::Rng; each point from its own stream,
// seeded by the seed and the point's number, in parallel.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "PipMap.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace pip {

constexpr uint32_t CityCount = 4096;
constexpr double CityRankExponent = 0.7;
constexpr double UniformShare = 0.1;
constexpr double SpreadMedian = 0.4, SpreadSigma = 0.8, MinSpread = 0.05, MaxSpread = 3; // pitches

namespace detail {

constexpr uint32_t PointStream = 2;

struct City {
  double X, Y, Spread;
};

inline std::vector<City> placeCities(const Map &M, uint64_t Seed) {
  bench::Rng Rand(Seed ^ 0x636974792d706f70ull);
  std::vector<City> Cities(CityCount);
  for (City &C : Cities) {
    const Box &B = M.Boxes[Rand.below(M.polygons())];
    C.X = std::fma(double(B.MaxX) - B.MinX, Rand.uniform01(), B.MinX);
    C.Y = std::fma(double(B.MaxY) - B.MinY, Rand.uniform01(), B.MinY);
    const double Spread = std::exp(std::fma(SpreadSigma, Rand.normal(), std::log(SpreadMedian)));
    C.Spread = Pitch * std::clamp(Spread, MinSpread, MaxSpread);
  }
  return Cities;
}

// A coordinate Centre + Spread x N(0, 1) inside [0, WorldSide).
inline int32_t scatter(double Centre, double Spread, bench::Rng &Rand) {
  for (;;) {
    const double V = std::floor(std::fma(Spread, Rand.normal(), Centre));
    if (V >= 0 && V < WorldSide)
      return int32_t(V);
  }
}

} // namespace detail

inline std::vector<Vertex> generatePoints(const Map &M, uint32_t N, uint64_t Seed) {
  using namespace detail;
  const std::vector<City> Cities = placeCities(M, Seed);
  // Popularity: the cumulative weights of the ranks, to draw a city by.
  std::vector<double> Cumulative(CityCount);
  double Total = 0;
  for (uint32_t K = 0; K < CityCount; ++K)
    Cumulative[K] = Total += std::pow(K + 1.0, -CityRankExponent);

  std::vector<Vertex> P(N);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng Rand = itemStream(Seed, I, PointStream);
      if (Rand.uniform01() < UniformShare) {
        P[I] = {int32_t(Rand.below(WorldSide)), int32_t(Rand.below(WorldSide))};
        continue;
      }
      const double Pick = Total * Rand.uniform01();
      const size_t K = std::min<size_t>(
          CityCount - 1,
          std::upper_bound(Cumulative.begin(), Cumulative.end(), Pick) - Cumulative.begin());
      const City &C = Cities[K];
      const int32_t X = scatter(C.X, C.Spread, Rand);
      P[I] = {X, scatter(C.Y, C.Spread, Rand)};
    }
  });
  return P;
}

} // namespace pip
