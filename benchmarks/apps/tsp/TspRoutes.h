// The input of the tsp app: a batch of small vehicle routes to improve, as a
// vehicle-routing solver holds them once it has assigned its stops to
// vehicles (or a batched heuristic after its construction phase), each route
// to be brought to a 2-opt optimum on its own. Route i has n stops, the
// depot among them, with n = 8 + floor(25 u^2) for u uniform in [0, 1): most
// routes are short (median 14), a fifth have 24 to 32 stops. The stops lie on
// a 256 x 256 street grid, uniform and distinct within a route, and come in
// the order they were assigned to the vehicle, which is random: that order
// is the starting tour.
//
// Routes are stored CSR-like: route i's stops are FirstCity[i] to
// FirstCity[i + 1] - 1 of one array of packed cities (TspTwoOpt.h). Every
// route draws from its own bench::Rng stream, seeded by the seed and the
// route's number, with integer draws only, so generation runs in parallel
// and the input depends neither on the number of host threads nor on
// floating point.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "TspTwoOpt.h"

#include <cstdint>
#include <vector>

namespace tsp {

struct Batch {
  std::vector<uint32_t> FirstCity; // routes + 1 offsets into Cities
  std::vector<City> Cities;
  uint32_t routes() const { return uint32_t(FirstCity.size() - 1); }
  uint32_t cities(uint32_t I) const { return FirstCity[I + 1] - FirstCity[I]; }
};

namespace detail {

inline bench::Rng routeStream(uint64_t Seed, uint32_t I) {
  uint64_t X = ((Seed + 0x632be59bd9b4e019ull) * 0x9e3779b97f4a7c15ull) ^ I;
  X = (X ^ (X >> 31)) * 0xd6e8feb86659fd93ull;
  X = (X ^ (X >> 32)) * 0xd6e8feb86659fd93ull;
  return bench::Rng(X ^ (X >> 32));
}

// The route's size, its stream's first draw: 8 + floor(25 u^2) with u a
// 16-bit fraction.
inline uint32_t drawCities(bench::Rng &R) {
  const uint64_t U = R.below(1u << 16);
  return MinCities + uint32_t(((MaxCities - MinCities + 1) * U * U) >> 32);
}

} // namespace detail

inline Batch generateBatch(uint32_t N, uint64_t Seed) {
  Batch B;
  B.FirstCity.assign(N + 1, 0);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng R = detail::routeStream(Seed, uint32_t(I));
      B.FirstCity[I + 1] = detail::drawCities(R);
    }
  });
  for (uint32_t I = 0; I < N; ++I)
    B.FirstCity[I + 1] += B.FirstCity[I];
  B.Cities.resize(B.FirstCity[N]);
  bench::parallelFor(N, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng R = detail::routeStream(Seed, uint32_t(I));
      detail::drawCities(R);
      City *Stops = B.Cities.data() + B.FirstCity[I];
      const uint32_t Count = B.FirstCity[I + 1] - B.FirstCity[I];
      for (uint32_t K = 0; K < Count; ++K) {
        // Distinct stops: two at one address would be one stop, and the
        // output, which holds the tour's cities rather than their numbers,
        // then says unambiguously which stop comes when.
        bool Repeated;
        do {
          Stops[K] = City(R.below(1u << 16));
          Repeated = false;
          for (uint32_t Before = 0; Before < K; ++Before)
            Repeated |= Stops[Before] == Stops[K];
        } while (Repeated);
      }
    }
  });
  return B;
}

} // namespace tsp
