// CPU reference for the tsp app: the same search written another way. The
// tour is a list of the route's stop numbers, distances come from the route's
// n x n matrix, computed once from the decoded coordinates, every pair's gain
// is recomputed from the tour as it stands (nothing is carried from one step
// to the next, and the closing edge wraps around with a modulo), and
// std::reverse makes a move. The pairs are visited in the kernel's order and
// a move is made under its condition (a gain of at least 1), so both make the
// same moves: tours, lengths, passes and moves must be equal.
//
// tourProblem() judges a tour on its own: a permutation of its route's stops
// from the route's first one, of the length reported, with no improving move
// left.
#pragma once

#include "../common/ParallelFor.h"
#include "TspRoutes.h"
#include "TspTwoOpt.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace tsp {

namespace reference {

struct Matrix {
  uint32_t N;
  int32_t D[MaxCities][MaxCities];

  Matrix(const City *Stops, uint32_t Count) : N(Count) {
    for (uint32_t P = 0; P < N; ++P)
      for (uint32_t Q = 0; Q < N; ++Q)
        D[P][Q] = std::abs(int32_t(Stops[P] % 256) - int32_t(Stops[Q] % 256)) +
                  std::abs(int32_t(Stops[P] / 256) - int32_t(Stops[Q] / 256));
  }
  // The length of the edge from tour position K to the next one.
  int32_t edge(const std::vector<uint32_t> &Tour, uint32_t K) const {
    return D[Tour[K]][Tour[(K + 1) % N]];
  }
  // What the move on the edges after positions I and J (I < J, not adjacent)
  // would shorten the tour by.
  int32_t gain(const std::vector<uint32_t> &Tour, uint32_t I, uint32_t J) const {
    return edge(Tour, I) + edge(Tour, J) - D[Tour[I]][Tour[J]] - D[Tour[I + 1]][Tour[(J + 1) % N]];
  }
  // Pairs of edges that share no stop: with I = 0, J = N - 1 is the edge
  // into position 0.
  bool nonAdjacent(uint32_t I, uint32_t J) const { return J >= I + 2 && !(I == 0 && J + 1 == N); }
};

// Route I's stops improved; their tour order goes to Tour.
inline Route improve(const Batch &B, uint32_t I, City *Tour) {
  const City *Stops = B.Cities.data() + B.FirstCity[I];
  const Matrix M(Stops, B.cities(I));
  std::vector<uint32_t> Order(M.N);
  for (uint32_t K = 0; K < M.N; ++K)
    Order[K] = K;
  Route R{0, 0, 0};
  bool Moved = true;
  while (Moved) {
    Moved = false;
    ++R.Passes;
    for (uint32_t P = 0; P < M.N; ++P)
      for (uint32_t Q = P + 2; Q < M.N; ++Q)
        if (M.nonAdjacent(P, Q) && M.gain(Order, P, Q) > 0) {
          std::reverse(Order.begin() + P + 1, Order.begin() + Q + 1);
          ++R.Moves;
          Moved = true;
        }
  }
  for (uint32_t K = 0; K < M.N; ++K) {
    R.Length += M.edge(Order, K);
    Tour[K] = Stops[Order[K]];
  }
  return R;
}

} // namespace reference

struct Improved {
  std::vector<Route> Routes;
  std::vector<City> Tours; // the tours' cities, laid out as the batch's
};

inline Improved referenceRoutes(const Batch &B) {
  Improved Out{std::vector<Route>(B.routes()), std::vector<City>(B.Cities.size())};
  bench::parallelFor(B.routes(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      Out.Routes[I] = reference::improve(B, uint32_t(I), Out.Tours.data() + B.FirstCity[I]);
  });
  return Out;
}

// Empty if Tour (route I's cities in tour order) is a 2-opt optimum of the
// route of length R.Length starting at its first stop, else what is wrong.
inline std::string tourProblem(const Batch &B, uint32_t I, const City *Tour, const Route &R) {
  const City *Stops = B.Cities.data() + B.FirstCity[I];
  const uint32_t N = B.cities(I);
  if (Tour[0] != Stops[0])
    return "the tour does not start at the route's first stop";
  // Stops are distinct, so the tour's position of each is well defined.
  std::vector<uint32_t> Order(N);
  std::vector<bool> Seen(N, false);
  for (uint32_t K = 0; K < N; ++K) {
    const uint32_t Stop = uint32_t(std::find(Stops, Stops + N, Tour[K]) - Stops);
    if (Stop == N || Seen[Stop])
      return "the tour is not a permutation of the route's stops";
    Seen[Stop] = true;
    Order[K] = Stop;
  }
  const reference::Matrix M(Stops, N);
  uint32_t Length = 0;
  for (uint32_t K = 0; K < N; ++K)
    Length += M.edge(Order, K);
  if (Length != R.Length)
    return "the tour is " + std::to_string(Length) + " long, not " + std::to_string(R.Length);
  for (uint32_t P = 0; P < N; ++P)
    for (uint32_t Q = P + 2; Q < N; ++Q)
      if (M.nonAdjacent(P, Q) && M.gain(Order, P, Q) > 0)
        return "the move on the edges after positions " + std::to_string(P) + " and " +
               std::to_string(Q) + " would still shorten it";
  return "";
}

} // namespace tsp
