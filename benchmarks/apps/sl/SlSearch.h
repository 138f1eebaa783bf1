// The per-thread work of the sound-localization kernel: steered response
// power over the frame's search region. For each candidate direction u the
// microphone spectra are delay-compensated (phase e^{-i w tau_m}, tau_m =
// p_m . u / c) and summed; the power is the energy of that sum over the bins.
// Each direction costs Mics * Bins sincosf, so the work is the region's size,
// which differs from frame to frame (SlInput.h).
#pragma once

#include "SlArray.h"

#include <cmath>
#include <cstdint>

namespace sl {

// Spectrum: this frame's FloatsPerFrame floats, [mic][bin][re, im].
SL_HD inline Direction searchFrame(const float *Spectrum, Region R) {
  const float TwoPi = 6.28318530717958647f;
  const float Step = float(StepDegrees * 3.14159265358979323846 / 180);
  const float ElMin = float(ElMinDegrees * 3.14159265358979323846 / 180);
  Direction Best{0, -1.0f};
  const int W = R.HalfWidth;
  for (int E = int(R.El) - W; E <= int(R.El) + W; ++E) {
    if (E < 0 || E >= int(ElSteps))
      continue;
    float SinEl, CosEl;
    sincosf(ElMin + float(E) * Step, &SinEl, &CosEl);
    for (int Da = -W; Da <= W; ++Da) {
      const uint32_t A = uint32_t(int(R.Az) + Da + int(AzSteps)) % AzSteps;
      float SinAz, CosAz;
      sincosf(float(A) * Step, &SinAz, &CosAz);
      const float Ux = CosEl * CosAz, Uy = CosEl * SinAz, Uz = SinEl;
      float AccRe[Bins], AccIm[Bins];
      for (uint32_t K = 0; K < Bins; ++K)
        AccRe[K] = AccIm[K] = 0.0f;
      for (uint32_t M = 0; M < Mics; ++M) {
        const float Tau = (float(micCoordinate(M, 0)) * Ux + float(micCoordinate(M, 1)) * Uy +
                           float(micCoordinate(M, 2)) * Uz) /
                          float(SoundSpeed);
        for (uint32_t K = 0; K < Bins; ++K) {
          float S, C;
          sincosf(TwoPi * float(binFrequency(K)) * Tau, &S, &C);
          const float Re = Spectrum[(M * Bins + K) * 2], Im = Spectrum[(M * Bins + K) * 2 + 1];
          // (Re + i Im) * (C - i S)
          AccRe[K] += Re * C + Im * S;
          AccIm[K] += Im * C - Re * S;
        }
      }
      float Power = 0.0f;
      for (uint32_t K = 0; K < Bins; ++K)
        Power += AccRe[K] * AccRe[K] + AccIm[K] * AccIm[K];
      if (Power > Best.Power)
        Best = Direction{uint32_t(E) * AzSteps + A, Power};
    }
  }
  return Best;
}

} // namespace sl
