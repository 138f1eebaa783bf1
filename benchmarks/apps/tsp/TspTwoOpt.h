// The per-route work of the tsp app, shared by its kernels: 2-opt local
// search with first improvement on one small closed tour, in a local array.
//
// A city is a stop on a 256 x 256 street grid, its two coordinates packed in
// 16 bits, and the distance between two stops is the Manhattan distance, so
// lengths are exact integers. A 2-opt move replaces the tour's edges
// (T[i], T[i + 1]) and (T[j], T[j + 1]) with (T[i], T[j]) and
// (T[i + 1], T[j + 1]) by reversing T[i + 1 .. j]; it improves when the two
// new edges are strictly shorter than the two old ones. A pass tries every
// pair i < j of non-adjacent edges in order (i outer, j inner) and makes each
// improving move as soon as it meets it, then goes on with the next j on the
// changed tour; passes repeat until one makes no move. T[0] is never in a
// reversed segment, so every tour starts where the input does.
//
// Threads diverge on the number of passes and on the route's size: a pass
// costs n (n - 3) / 2 move evaluations, 20 for 8 stops and 464 for 32, and a
// route takes 1 to about 10 passes depending on how far its starting order
// is from a 2-opt optimum. Termination needs no cap: every move shortens the
// tour by at least 1, so a route makes fewer moves than its starting length
// (at most 32 x 510), which also bounds its passes (at most moves + 1)
// within 16 bits.
#pragma once

#include <cstdint>

namespace tsp {

#if defined(__CUDACC__)
#define TSP_HD __host__ __device__
#else
#define TSP_HD
#endif

constexpr uint32_t MinCities = 8, MaxCities = 32;

// x in the low byte, y in the high byte.
using City = uint16_t;

// What a thread writes besides its tour.
struct Route {
  uint32_t Length;
  uint16_t Passes; // including the last, which makes no move
  uint16_t Moves;
};

TSP_HD inline int32_t distance(City P, City Q) {
  const int32_t Dx = int32_t(P & 0xff) - int32_t(Q & 0xff);
  const int32_t Dy = int32_t(P >> 8) - int32_t(Q >> 8);
  return (Dx < 0 ? -Dx : Dx) + (Dy < 0 ? -Dy : Dy);
}

// The move evaluations of one pass over an n-city tour: for i = 0, the
// j = 2 .. n - 2 (j = n - 1 would pair the edge with its neighbour through
// T[0]), for i = 1 .. n - 3, the j = i + 2 .. n - 1.
TSP_HD inline uint32_t evaluationsPerPass(uint32_t N) { return N * (N - 3) / 2; }

TSP_HD inline void reverseSegment(City *T, uint32_t Left, uint32_t Right) {
  for (; Left < Right; ++Left, --Right) {
    const City Swap = T[Left];
    T[Left] = T[Right];
    T[Right] = Swap;
  }
}

// Improves the tour T[0 .. N - 1] (MinCities <= N <= MaxCities) in place to a
// 2-opt local optimum; T has room for N + 1 cities, the last a copy of T[0]
// so that the edge closing the tour needs no wrap-around. Always inlined:
// each kernel then holds the search loops itself, where divopt's profile
// counts them, as the other apps' kernels hold their work.
TSP_HD inline __attribute__((always_inline)) Route improveTour(City *T, uint32_t N) {
  T[N] = T[0];
  uint32_t Passes = 0, Moves = 0;
  bool Improved;
  do {
    Improved = false;
    ++Passes;
    for (uint32_t I = 0; I + 2 < N; ++I) {
      const City A = T[I];
      City B = T[I + 1];
      int32_t AB = distance(A, B);
      // C and E are the ends of the edge (T[J], T[J + 1]); each step reads
      // only T[J + 1], the edge's far end, which a move never changes.
      City C = T[I + 2];
      const uint32_t Last = I == 0 ? N - 2 : N - 1;
      for (uint32_t J = I + 2; J <= Last; ++J) {
        const City E = T[J + 1];
        const int32_t CE = distance(C, E);
        if (distance(A, C) + distance(B, E) < AB + CE) {
          reverseSegment(T, I + 1, J);
          B = C; // T[I + 1] is now the old T[J]
          AB = distance(A, B);
          ++Moves;
          Improved = true;
        }
        C = E;
      }
    }
  } while (Improved);
  uint32_t Length = 0;
  for (uint32_t K = 0; K < N; ++K)
    Length += distance(T[K], T[K + 1]);
  return {Length, uint16_t(Passes), uint16_t(Moves)};
}

} // namespace tsp
