// CPU reference for the binomial app. The prices come from the kernels' own
// routine on the host (BinomialTree.h: the same correctly rounded operations,
// so the GPU's doubles must be equal bit for bit). That alone cannot catch a
// mistake in the shared code (its 16-step passes are easy to get wrong), so
// a second price is computed from the textbook recursion, one time step at a
// time with node prices from std::pow, and must agree to 1e-11 of the strike
// (only the rounding of the node prices differs).
#pragma once

#include "../common/ParallelFor.h"
#include "BinomialTree.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace binomial {

inline std::vector<double> referencePrices(const std::vector<Option> &Book) {
  std::vector<double> Prices(Book.size());
  bench::parallelFor(Book.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      Prices[I] = americanPut(Book[I]);
  });
  return Prices;
}

// V(i, j) = max(e^(-r dt) (p V(i+1, j+1) + (1 - p) V(i+1, j)), K - S u^(2j - i)),
// V(N, j) = max(K - S u^(2j - N), 0).
inline double textbookPrice(const Option &O) {
  const int N = int(O.Steps);
  std::vector<double> Price(2 * N + 1); // Price[N + k] = S u^k
  for (int K = -N; K <= N; ++K)
    Price[N + K] = O.Spot * std::pow(O.Up, K);
  std::vector<double> V(N + 1);
  for (int J = 0; J <= N; ++J)
    V[J] = std::max(O.Strike - Price[2 * J], 0.0);
  for (int I = N - 1; I >= 0; --I)
    for (int J = 0; J <= I; ++J)
      V[J] = std::max(O.DiscUp * V[J + 1] + O.DiscDown * V[J], O.Strike - Price[N + 2 * J - I]);
  return V[0];
}

// The index of the first option whose price misses the textbook's by more
// than 1e-11 of its strike, or Book.size() if none does.
inline size_t firstTextbookMismatch(const std::vector<Option> &Book,
                                    const std::vector<double> &Prices) {
  std::vector<char> Bad(Book.size());
  bench::parallelFor(Book.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I)
      Bad[I] = !(std::fabs(Prices[I] - textbookPrice(Book[I])) <= 1e-11 * Book[I].Strike);
  });
  return size_t(std::find(Bad.begin(), Bad.end(), 1) - Bad.begin());
}

} // namespace binomial
