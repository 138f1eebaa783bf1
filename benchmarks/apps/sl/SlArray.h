// The geometry shared by the sound-localization generator, kernel and CPU
// reference: eight microphones on the corners of a 30 cm cube, eight
// frequency bins (500 Hz to 4 kHz), and the grid of candidate directions
// (2-degree steps: 180 azimuths by 90 elevations from -89 to +89 degrees).
#pragma once

#include <cstdint>

namespace sl {

#if defined(__CUDACC__)
#define SL_HD __host__ __device__
#else
#define SL_HD
#endif

constexpr uint32_t Mics = 8;
constexpr uint32_t Bins = 8;
constexpr uint32_t FloatsPerFrame = Mics * Bins * 2; // complex spectrum, re then im
constexpr uint32_t AzSteps = 180, ElSteps = 90;
constexpr double StepDegrees = 2.0, ElMinDegrees = -89.0;
constexpr double SoundSpeed = 343.0; // m/s
constexpr double CubeSide = 0.3;     // m
constexpr double BaseFrequency = 500.0;

// Microphone M sits on the corner whose x, y, z signs are M's bits 0, 1, 2.
SL_HD inline double micCoordinate(uint32_t M, uint32_t Axis) {
  return ((M >> Axis) & 1) ? CubeSide / 2 : -CubeSide / 2;
}
// Frequency of bin K in Hz.
SL_HD inline double binFrequency(uint32_t K) { return BaseFrequency * (K + 1); }

// Angle index A (azimuth) or E (elevation) in radians.
SL_HD inline double azimuthRadians(uint32_t A) { return A * StepDegrees * 3.14159265358979323846 / 180; }
SL_HD inline double elevationRadians(uint32_t E) {
  return (ElMinDegrees + E * StepDegrees) * 3.14159265358979323846 / 180;
}

// The search region of one frame: (2 * HalfWidth + 1)^2 grid directions
// centred on (Az, El); azimuth wraps around, elevations off the grid are
// skipped.
struct Region {
  uint16_t Az, El, HalfWidth, Unused;
};

// Grid directions a region holds: its work.
SL_HD inline uint32_t regionAngles(Region R) {
  int Rows = 0;
  for (int E = int(R.El) - R.HalfWidth; E <= int(R.El) + R.HalfWidth; ++E)
    Rows += E >= 0 && E < int(ElSteps);
  return uint32_t(Rows) * (2u * R.HalfWidth + 1);
}

// A frame's answer: the grid direction of greatest steered power
// (E * AzSteps + A) and that power.
struct Direction {
  uint32_t Angle;
  float Power;
};

} // namespace sl
