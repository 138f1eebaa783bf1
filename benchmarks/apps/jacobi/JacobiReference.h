// CPU reference for the jacobi app, in two parts. referenceSpectra runs the
// kernel's own per-matrix routine (JacobiSweep.h) on the host over the batch:
// it executes the same correctly rounded operations in the same order, so
// eigenvalues and sweep counts must be equal bit for bit; this checks the
// kernels' indexing and the regroupings. isNearSpectrum checks the values
// against the generator's spectrum without the shared code, which catches a
// mistake (a wrong rotation, a pair never visited) that both sides would
// share.
#pragma once

#include "../common/ParallelFor.h"
#include "JacobiBatch.h"
#include "JacobiSweep.h"

#include <cmath>
#include <cstddef>
#include <vector>

namespace jacobi {

// Eigenvalues may be off the generator's by AllowedError times the norm of
// the spectrum: rounding the matrix to float moves them by at most 2^-24 of
// it (Weyl's inequality; the rounding error's Frobenius norm is at most
// 2^-24 of the matrix's), the stopping rule leaves an off-diagonal part of at
// most 2^-22 of it, and the rotations' own rounding adds a few units more
// (the largest total on the host, over 2^22 matrices, is 7.1 x 2^-24).
constexpr double AllowedError = 0x1p-20;

inline std::vector<Spectrum> referenceSpectra(const Batch &B) {
  std::vector<Spectrum> Out(B.Matrices.size());
  bench::parallelFor(B.Matrices.size(), [&](size_t Begin, size_t End) {
    for (size_t M = Begin; M < End; ++M)
      Out[M] = eigenvalues(B.Matrices[M]);
  });
  return Out;
}

// Whether Values (ascending) are within AllowedError x ||lambda|| of matrix
// M's generated spectrum, in double.
inline bool isNearSpectrum(const Batch &B, size_t M, const float *Values) {
  const double *Lambda = &B.Spectra[M * Order];
  double Norm = 0;
  for (uint32_t I = 0; I < Order; ++I)
    Norm += Lambda[I] * Lambda[I];
  const double Allowed = AllowedError * std::sqrt(Norm);
  for (uint32_t I = 0; I < Order; ++I)
    if (!(std::fabs(double(Values[I]) - Lambda[I]) <= Allowed))
      return false;
  return true;
}

} // namespace jacobi
