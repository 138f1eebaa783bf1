// CPU reference for the ik app, in two parts. referenceSolutions runs the
// kernels' own routine (IkSolve.h) on the host over every chain: it executes
// the same correctly rounded operations in the same order, so effectors,
// sweeps, steps and turns must be equal bit for bit; this checks the
// kernels' indexing and the regroupings. solutionProblem judges a solution
// without the shared code, in double: the turns are unit, the effector is
// where the turns put it, CCD brought it no farther from the target than it
// started, the steps fit the sweeps, a solve that stopped before the cap
// stopped within Tolerance, and one whose target is out of reach ran to the
// cap. It catches mistakes both sides would share (a rotation the wrong way,
// a turn applied to the wrong joint, a lost step).
#pragma once

#include "../common/ParallelFor.h"
#include "IkChains.h"
#include "IkSolve.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace ik {

struct Solved {
  std::vector<Solution> Solutions;
  std::vector<Turn> Turns; // the final turns, laid out as the batch's poses
};

inline Solved referenceSolutions(const Batch &B) {
  Solved Out{std::vector<Solution>(B.chains()), B.Pose};
  bench::parallelFor(B.chains(), [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      const uint32_t First = B.FirstJoint[I];
      Out.Solutions[I] = solveChain(Out.Turns.data() + First, B.Length.data() + First,
                                    B.joints(uint32_t(I)), B.Target[I]);
    }
  });
  return Out;
}

namespace reference {

// A turn's length may be off 1 by a few float roundings (2^-24 each).
constexpr double UnitSlack = 0x1p-20;
// The float effector may be off the double one by a few roundings of the
// chain's size (at most 6.4 m) per joint, and up to a sweep's steps carried
// it since the last forward kinematics: at most 2.0e-6 m over 2^20 chains.
constexpr double PlaceSlack = 0x1p-14;

// The effector of the turns Pose[0 .. N - 1] in double.
inline void place(const Turn *Pose, const float *Length, uint32_t N, double &X, double &Y) {
  double Cos = 1, Sin = 0;
  X = Y = 0;
  for (uint32_t J = 0; J < N; ++J) {
    const double NextCos = Cos * Pose[J].Cos - Sin * Pose[J].Sin;
    Sin = Cos * Pose[J].Sin + Sin * Pose[J].Cos;
    Cos = NextCos;
    X += Length[J] * Cos;
    Y += Length[J] * Sin;
  }
}

} // namespace reference

// Empty if Turns (chain I's final turns) and S are a CCD solution of chain
// I, else what is wrong.
inline std::string solutionProblem(const Batch &B, uint32_t I, const Turn *Turns,
                                   const Solution &S) {
  using namespace reference;
  const uint32_t First = B.FirstJoint[I], N = B.joints(I);
  const float *Length = B.Length.data() + First;
  double Reach = 0;
  for (uint32_t J = 0; J < N; ++J) {
    Reach += Length[J];
    if (std::fabs(std::hypot(double(Turns[J].Cos), double(Turns[J].Sin)) - 1) > UnitSlack)
      return "joint " + std::to_string(J) + "'s turn is not a unit";
  }
  double StartX, StartY, EndX, EndY;
  place(B.Pose.data() + First, Length, N, StartX, StartY);
  place(Turns, Length, N, EndX, EndY);
  if (std::hypot(EndX - S.Effector.X, EndY - S.Effector.Y) > PlaceSlack)
    return "the effector is not where the turns put it";
  const Vec2 T = B.Target[I];
  const double Before = std::hypot(StartX - T.X, StartY - T.Y);
  const double After = std::hypot(EndX - T.X, EndY - T.Y);
  if (After > Before + PlaceSlack)
    return "the effector moved away from the target";
  if (S.Sweeps == 0 ? S.Steps != 0 : S.Steps <= (S.Sweeps - 1) * N || S.Steps > S.Sweeps * N)
    return "the steps do not fit the sweeps";
  // Every step of every sweep: the cap, unless the last one reached the
  // target (a solve that runs to the cap may still get there at its end).
  const bool Capped = S.Sweeps == MaxSweeps && S.Steps == MaxSweeps * N;
  if (!Capped && After > Tolerance + PlaceSlack)
    return "the solve stopped short of the target";
  if (std::hypot(double(T.X), double(T.Y)) - Reach > Tolerance + PlaceSlack && !Capped)
    return "a solve stopped before the cap with its target out of reach";
  return "";
}

} // namespace ik
