// The per-oscillator work of the ode app, shared by its kernels and its CPU
// reference: a forced Van der Pol oscillator
//   x'' - mu (1 - x^2) x' + x = A cos(omega t)
// integrated from t = 0 to EndTime with the Bogacki-Shampine 3(2) pair (the
// method of MATLAB's ode23 and SciPy's RK23) and adaptive steps. The state is
// (x, v = x', c, s): the forcing's cos(omega t) and sin(omega t) are carried
// as a rotating pair, c' = -omega s, s' = omega c, so the right-hand side is
// a polynomial and no cos is ever called.
//
// Threads diverge on the number of steps. Where |x| > 1 the damping
// mu (x^2 - 1) makes the system stiff: an explicit method's step is then held
// near its stability limit, about 2.5 / (mu (x^2 - 1)) (a longer step makes
// the error estimate blow up and is rejected), so beyond mu ~ 10 the steps
// grow in proportion to mu: 60 to 350 for mu < 10, thousands for mu > 100
// (20,000 to 36,000 near mu = 1000 without the cap MaxSteps).
//
// Every operation goes through ../common/RoundedDouble.h (correctly rounded
// +, -, *, / and sqrt; no fma, no pow): host and GPU execute the same
// operations in the same order, so the CPU reference is equal bit for bit.
// The step-size factor err^(-1/4) is therefore three square roots of
// 1 / err^2 (the pair's ideal exponent is 1/3, a cube root; 1/4 is a little
// cautious).
#pragma once

#include "../common/RoundedDouble.h"

#include <cstdint>

namespace ode {

#if defined(__CUDACC__)
#define ODE_HD __host__ __device__
#else
#define ODE_HD
#endif

constexpr double EndTime = 20;
constexpr double RelativeTolerance = 1e-3, AbsoluteTolerance = 1e-6;
constexpr double InitialStep = 1e-3;
// Step-size factor: 0.9 err^(-1/4), kept within [MinFactor, MaxFactor].
constexpr double Safety = 0.9, MinFactor = 0.2, MaxFactor = 5;
// Steps (accepted and rejected) after which an oscillator gives up short of
// EndTime, as a production integrator's max_steps would (0.8% of the
// ensemble, mostly mu > 100). It also bounds the longest thread: ~2048 steps
// of dependent FP64 work, under a millisecond alone on an H100.
constexpr uint32_t MaxSteps = 2048;

// One oscillator of the ensemble: its parameters and initial position and
// velocity (the forcing starts at phase 0: c = 1, s = 0).
struct Oscillator {
  double Mu, Amplitude, Omega;
  double X0, V0;
};

struct State {
  double X, V, C, S;
};

// Where the integration stopped: EndTime, or earlier at the cap.
struct Trajectory {
  State Y;
  double Time;
  uint32_t Steps, Rejected; // Steps counts the rejected ones too
};

// What the kernels write per oscillator (32 bytes, no padding): the
// oscillator's part of the state, where and after how many steps it stopped.
struct Endpoint {
  double X, V, Time;
  uint32_t Steps, Rejected;
};

ODE_HD inline Endpoint endpointOf(const Trajectory &T) {
  return {T.Y.X, T.Y.V, T.Time, T.Steps, T.Rejected};
}

using namespace bench::rounded; // add, sub, mul, divide, squareRoot, ...

ODE_HD inline State derivative(const Oscillator &P, const State &Y) {
  // mu (1 - x^2) v - x + A c
  const double Damping = mul(mul(P.Mu, sub(1.0, mul(Y.X, Y.X))), Y.V);
  return {Y.V, add(sub(Damping, Y.X), mul(P.Amplitude, Y.C)), -mul(P.Omega, Y.S),
          mul(P.Omega, Y.C)};
}

// Y + H (A K)
ODE_HD inline State stage(const State &Y, double H, double A, const State &K) {
  const double HA = mul(H, A);
  return {add(Y.X, mul(HA, K.X)), add(Y.V, mul(HA, K.V)), add(Y.C, mul(HA, K.C)),
          add(Y.S, mul(HA, K.S))};
}

// A1 K1 + A2 K2 + A3 K3 for one component, added left to right.
ODE_HD inline double combine(double A1, double K1, double A2, double K2, double A3, double K3) {
  return add(add(mul(A1, K1), mul(A2, K2)), mul(A3, K3));
}

// The error of one component relative to its tolerance, squared.
ODE_HD inline double scaledSquare(double Error, double Old, double New) {
  const double Scale =
      add(AbsoluteTolerance, mul(RelativeTolerance, maxDouble(absolute(Old), absolute(New))));
  const double Ratio = divide(Error, Scale);
  return mul(Ratio, Ratio);
}

// Always inlined: each kernel then holds the step loop itself, where divopt's
// profile counts it (a call is one instruction to it), as in the other apps.
ODE_HD inline __attribute__((always_inline)) Trajectory integrate(const Oscillator &P) {
  // Bogacki-Shampine: nodes 0, 1/2, 3/4, 1; the third-order solution
  // Y + H (2/9 K1 + 1/3 K2 + 4/9 K3) is also the point of K4 (first same as
  // last: K4 is the next step's K1); the error estimate is the difference
  // from the second-order solution, H (-5/72 K1 + 1/12 K2 + 1/9 K3 - 1/8 K4).
  constexpr double B1 = 2.0 / 9, B2 = 1.0 / 3, B3 = 4.0 / 9;
  constexpr double E1 = -5.0 / 72, E2 = 1.0 / 12, E3 = 1.0 / 9, E4 = -1.0 / 8;
  State Y{P.X0, P.V0, 1, 0};
  State K1 = derivative(P, Y);
  double Time = 0, H = InitialStep;
  uint32_t Steps = 0, Rejected = 0;
  while (Time < EndTime && Steps < MaxSteps) {
    // The last step lands on EndTime exactly.
    const bool Last = add(Time, H) >= EndTime;
    if (Last)
      H = sub(EndTime, Time);
    const State K2 = derivative(P, stage(Y, H, 0.5, K1));
    const State K3 = derivative(P, stage(Y, H, 0.75, K2));
    const State Next{add(Y.X, mul(H, combine(B1, K1.X, B2, K2.X, B3, K3.X))),
                     add(Y.V, mul(H, combine(B1, K1.V, B2, K2.V, B3, K3.V))),
                     add(Y.C, mul(H, combine(B1, K1.C, B2, K2.C, B3, K3.C))),
                     add(Y.S, mul(H, combine(B1, K1.S, B2, K2.S, B3, K3.S)))};
    const State K4 = derivative(P, Next);
    // The mean of the squared scaled errors: the step passes when it is <= 1.
    const double ErrorX = mul(H, add(combine(E1, K1.X, E2, K2.X, E3, K3.X), mul(E4, K4.X)));
    const double ErrorV = mul(H, add(combine(E1, K1.V, E2, K2.V, E3, K3.V), mul(E4, K4.V)));
    const double ErrorC = mul(H, add(combine(E1, K1.C, E2, K2.C, E3, K3.C), mul(E4, K4.C)));
    const double ErrorS = mul(H, add(combine(E1, K1.S, E2, K2.S, E3, K3.S), mul(E4, K4.S)));
    const double MeanSquare =
        mul(0.25, add(add(add(scaledSquare(ErrorX, Y.X, Next.X), scaledSquare(ErrorV, Y.V, Next.V)),
                          scaledSquare(ErrorC, Y.C, Next.C)),
                      scaledSquare(ErrorS, Y.S, Next.S)));
    ++Steps;
    if (MeanSquare <= 1) {
      Time = Last ? EndTime : add(Time, H);
      Y = Next;
      K1 = K4;
    } else {
      ++Rejected;
    }
    // 0.9 (1 / MeanSquare)^(1/8); a zero error gives 1 / 0 = inf, then MaxFactor.
    const double Factor =
        mul(Safety, squareRoot(squareRoot(squareRoot(divide(1.0, MeanSquare)))));
    H = mul(H, minDouble(maxDouble(Factor, MinFactor), MaxFactor));
  }
  return {Y, Time, Steps, Rejected};
}

#undef ODE_HD

} // namespace ode
