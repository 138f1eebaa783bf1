// CPU reference for the sound-localization app, in double precision and
// formulated differently from the kernel: the steering phases of every grid
// direction are tabulated once, and each frame's region is scanned against
// the table. The kernel computes in float with sincosf, so results agree
// within a tolerance (sl.cu's check), not bit for bit.
#pragma once

#include "../common/ParallelFor.h"
#include "SlArray.h"
#include "SlInput.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

namespace sl {

class SteeringTable {
public:
  SteeringTable() : Phasors(size_t(AzSteps) * ElSteps * Mics * Bins) {
    for (uint32_t E = 0; E < ElSteps; ++E)
      for (uint32_t A = 0; A < AzSteps; ++A) {
        const double El = elevationRadians(E), Az = azimuthRadians(A);
        const double U[3] = {std::cos(El) * std::cos(Az), std::cos(El) * std::sin(Az),
                             std::sin(El)};
        for (uint32_t M = 0; M < Mics; ++M) {
          double Tau = 0;
          for (uint32_t Axis = 0; Axis < 3; ++Axis)
            Tau += micCoordinate(M, Axis) * U[Axis];
          Tau /= SoundSpeed;
          for (uint32_t K = 0; K < Bins; ++K)
            Phasors[index(E * AzSteps + A, M, K)] =
                std::polar(1.0, -2 * 3.14159265358979323846 * binFrequency(K) * Tau);
        }
      }
  }

  // Steered power of a frame's spectrum towards grid direction Angle.
  double power(const float *Spectrum, uint32_t Angle) const {
    double Total = 0;
    for (uint32_t K = 0; K < Bins; ++K) {
      std::complex<double> Sum = 0;
      for (uint32_t M = 0; M < Mics; ++M)
        Sum += std::complex<double>(Spectrum[(M * Bins + K) * 2], Spectrum[(M * Bins + K) * 2 + 1]) *
               Phasors[index(Angle, M, K)];
      Total += std::norm(Sum);
    }
    return Total;
  }

private:
  static size_t index(uint32_t Angle, uint32_t M, uint32_t K) {
    return (size_t(Angle) * Mics + M) * Bins + K;
  }
  std::vector<std::complex<double>> Phasors;
};

// Whether grid direction Angle lies in region R.
inline bool inRegion(Region R, uint32_t Angle) {
  const int E = int(Angle / AzSteps), A = int(Angle % AzSteps);
  const int Da = ((A - int(R.Az)) % int(AzSteps) + int(AzSteps) + int(AzSteps) / 2) % int(AzSteps) -
                 int(AzSteps) / 2;
  return std::abs(E - int(R.El)) <= R.HalfWidth && std::abs(Da) <= R.HalfWidth;
}

// The best direction of each frame and its power, in double precision.
struct ReferenceDirection {
  uint32_t Angle;
  double Power;
};

inline std::vector<ReferenceDirection> referenceDirections(const Input &In,
                                                           const SteeringTable &Table) {
  std::vector<ReferenceDirection> Out(In.Regions.size());
  bench::parallelFor(Out.size(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      const Region R = In.Regions[I];
      ReferenceDirection Best{0, -1};
      const int Lo = std::max(0, int(R.El) - R.HalfWidth);
      const int Hi = std::min(int(ElSteps) - 1, int(R.El) + R.HalfWidth);
      for (int E = Lo; E <= Hi; ++E)
        for (int A = 0; A < int(AzSteps); ++A) {
          const uint32_t Angle = uint32_t(E) * AzSteps + uint32_t(A);
          if (!inRegion(R, Angle))
            continue;
          double P = Table.power(&In.Spectra[I * FloatsPerFrame], Angle);
          if (P > Best.Power)
            Best = ReferenceDirection{Angle, P};
        }
      Out[I] = Best;
    }
  });
  return Out;
}

} // namespace sl
