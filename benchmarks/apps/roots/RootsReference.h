// CPU reference for the roots app, in two parts. referenceRoots runs the
// kernel's own per-polynomial routine (RootsAberth.h) on the host over the
// batch: it executes the same correctly rounded operations in the same order,
// so roots, sweeps and evaluations must be equal bit for bit; this checks the
// kernels' indexing and the regroupings. areRootsPlausible checks each
// polynomial's roots against the coefficients without the shared code, in
// long double: every root is a root of a nearby polynomial (its residual is
// within 2^-44 of sum |a_i| |z|^i, a few hundred units of rounding), and the
// roots' sum and product are Vieta's -a_{n-1} and (-1)^n a_0, within what
// clusters allow (the worst seen were about 2^-10 and 2^-7 relative; a root
// found twice and another missed moves them by far more). It catches a
// mistake both sides would share (a wrong sign, a wrong coefficient).
#pragma once

#include "../common/ParallelFor.h"
#include "RootsAberth.h"

#include <cmath>
#include <cstddef>
#include <vector>

namespace roots {

inline std::vector<Roots> referenceRoots(const std::vector<Polynomial> &Polynomials,
                                         const std::vector<Complex> &Start) {
  std::vector<Roots> Out(Polynomials.size());
  bench::parallelFor(Polynomials.size(), [&](size_t Begin, size_t End) {
    for (size_t M = Begin; M < End; ++M)
      Out[M] = aberthRoots(Polynomials[M], Start.data());
  });
  return Out;
}

constexpr long double ResidualTolerance = 0x1p-44L;
constexpr long double SumTolerance = 0x1p-6L, ProductTolerance = 0x1p-4L;

inline bool areRootsPlausible(const Polynomial &P, const Complex *Root) {
  const uint32_t N = P.Degree;
  long double SumRe = 0, SumIm = 0, SumModuli = 0, ProductRe = 1, ProductIm = 0;
  for (uint32_t K = 0; K < N; ++K) {
    const long double X = Root[K].Re, Y = Root[K].Im, Modulus = std::hypot(X, Y);
    long double ValueRe = 1, ValueIm = 0, Magnitudes = 1;
    for (uint32_t I = N; I-- > 0;) {
      const long double Re = ValueRe * X - ValueIm * Y;
      ValueIm = ValueRe * Y + ValueIm * X;
      ValueRe = Re + P.Coefficient[I];
      Magnitudes = Magnitudes * Modulus + std::fabs((long double)P.Coefficient[I]);
    }
    if (!(std::hypot(ValueRe, ValueIm) <= ResidualTolerance * Magnitudes))
      return false;
    SumRe += X;
    SumIm += Y;
    SumModuli += Modulus;
    const long double Re = ProductRe * X - ProductIm * Y;
    ProductIm = ProductRe * Y + ProductIm * X;
    ProductRe = Re;
  }
  const long double Product = (N % 2 ? -1.0L : 1.0L) * P.Coefficient[0];
  return std::hypot(SumRe + P.Coefficient[N - 1], SumIm) <= SumTolerance * SumModuli &&
         std::hypot(ProductRe - Product, ProductIm) <= ProductTolerance * std::fabs(Product);
}

} // namespace roots
