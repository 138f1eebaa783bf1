// CPU reference for the bisect app, in two parts. referenceEigenvalues runs
// the kernel's own per-request routine (BisectEigenvalue.h) on the host over
// the batch: it executes the same correctly rounded operations in the same
// order, so values and step counts must be equal bit for bit; this checks the
// kernels' indexing and the regroupings. isEigenvalueNear checks each value
// against the definition without the shared code: Sturm counts in long
// double just below and just above the value must put exactly the requested
// eigenvalue between them, which catches a mistake (an index off by one, a
// wrong pivot) that both sides would share.
#pragma once

#include "../common/ParallelFor.h"
#include "BisectBatch.h"
#include "BisectEigenvalue.h"

#include <cstddef>
#include <limits>
#include <vector>

namespace bisect {

inline std::vector<Eigenvalue> referenceEigenvalues(const Batch &B) {
  std::vector<Eigenvalue> Out(B.Requests.size());
  bench::parallelFor(B.Requests.size(), [&](size_t Begin, size_t End) {
    for (size_t M = Begin; M < End; ++M)
      Out[M] = bisectEigenvalue(&B.Diagonal[B.Start[M]], &B.OffDiagonal[B.Start[M]],
                                B.Requests[M]);
  });
  return Out;
}

// Eigenvalues of the matrix (D, E) of order N below X: negative pivots of
// T - X I, in long double (a zero pivot, which has probability zero here, is
// taken as a tiny negative one).
inline uint32_t eigenvaluesBelow(const double *D, const double *E, uint32_t N, long double X) {
  const long double Tiny = std::numeric_limits<long double>::min();
  uint32_t Count = 0;
  long double Pivot = 1;
  for (uint32_t I = 0; I < N; ++I) {
    const long double Coupling = I == 0 ? 0.0L : (long double)E[I - 1] * E[I - 1];
    Pivot = (D[I] - X) - Coupling / Pivot;
    if (Pivot == 0)
      Pivot = -Tiny;
    Count += Pivot < 0;
  }
  return Count;
}

// Whether the request's eigenvalue lies within its tolerance of Value, plus
// n * 2^-44 of the norm for the rounding of the double counts (their
// backward error is a few ulps of the norm); the norm is bounded here by
// max |d_i| + |e_{i-1}| + |e_i|.
inline bool isEigenvalueNear(const Batch &B, size_t M, double Value) {
  const Request &Q = B.Requests[M];
  const double *D = &B.Diagonal[B.Start[M]];
  const double *E = &B.OffDiagonal[B.Start[M]];
  long double Norm = 0;
  for (uint32_t I = 0; I < Q.Order; ++I) {
    long double Radius = 0;
    if (I > 0)
      Radius += E[I - 1] < 0 ? -(long double)E[I - 1] : E[I - 1];
    if (I + 1 < Q.Order)
      Radius += E[I] < 0 ? -(long double)E[I] : E[I];
    const long double Reach = (D[I] < 0 ? -(long double)D[I] : D[I]) + Radius;
    Norm = Reach > Norm ? Reach : Norm;
  }
  const long double Margin = Norm * ((long double)Q.RelTol + Q.Order * 0x1p-44L);
  return eigenvaluesBelow(D, E, Q.Order, Value - Margin) <= Q.Index &&
         eigenvaluesBelow(D, E, Q.Order, Value + Margin) > Q.Index;
}

} // namespace bisect
