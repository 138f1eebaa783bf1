// The input of the ik app: one frame of a crowd's IK requests, as an
// animation system gathers them for its solver: a planar chain per
// character limb, tail or tentacle, its pose from the last frame and the
// point its end must reach now.
//
// Chain i has n = 3 + floor(14 u^3) joints (u uniform in [0, 1)): most are
// limbs of 3 to 5 (median 4), a fifth tails and tentacles of 10 to 16. Its
// links are 10 to 40 cm long (uniform). The starting pose turns the root
// link to a uniformly random direction and bends every other joint by up
// to 90 degrees either way (tan(angle / 2) uniform in [-1, 1]). The target:
// - 60% tracking: where the effector would be with every joint bent further
//   by up to 3.4 degrees (tan(angle / 2) uniform in [-0.03, 0.03]): the
//   target moved a little since the last frame; median 5 sweeps (2 to 20
//   for 80% of them), 1% at the cap.
// - 30% reaching: the effector of an unrelated random pose drawn as the
//   starting one: a new target anywhere within reach; median 13 sweeps,
//   14% at the cap, mostly targets near the edge of reach, where CCD crawls.
// - 10% out of reach: in a random direction, 1.02 to 1.5 times the chain's
//   length (the sum of its links) from the root: runs to the sweep cap.
// Kinds are mixed at random over the chain numbers, as a crowd's limbs
// interleave, so nearly every warp holds a chain at the cap and waits for
// it.
//
// Chains are stored CSR-like: chain i's joints are FirstJoint[i] to
// FirstJoint[i + 1] - 1 of the per-joint arrays. Poses are made in double
// through ../common/RoundedDouble.h (nothing contracted; no trigonometry:
// a direction is a point of the unit disc normalized, a bend the tangent
// half-angle formulas) and rounded to float. Every chain draws from its own
// bench::Rng stream seeded by (seed, chain), in parallel, so the input does
// not depend on the number of host threads.
#pragma once

#include "../common/ParallelFor.h"
#include "../common/Random.h"
#include "../common/RoundedDouble.h"
#include "IkSolve.h"

#include <cstdint>
#include <vector>

namespace ik {

constexpr double MinLength = 0.1, MaxLength = 0.4;           // metres
constexpr double MaxBend = 1.0;                              // tan(angle / 2): 90 degrees
constexpr double MaxNudge = 0.03;                            // tan(angle / 2): 3.4 degrees
constexpr double TrackingShare = 0.60, ReachingShare = 0.30; // the rest out of reach
constexpr double MinOutside = 1.02, MaxOutside = 1.5;        // of the chain's length

struct Batch {
  std::vector<uint32_t> FirstJoint; // chains + 1 offsets into the per-joint arrays
  std::vector<float> Length;        // per joint: its link's length
  std::vector<Turn> Pose;           // per joint: its starting turn
  std::vector<Vec2> Target;         // per chain
  uint32_t chains() const { return uint32_t(FirstJoint.size() - 1); }
  uint32_t joints(uint32_t I) const { return FirstJoint[I + 1] - FirstJoint[I]; }
};

namespace detail {

using bench::rounded::add;
using bench::rounded::divide;
using bench::rounded::mul;
using bench::rounded::squareRoot;
using bench::rounded::sub;

// The chain's joint count, its stream's first draw: 3 + floor(14 u^3) with u
// a 16-bit fraction.
inline uint32_t drawJoints(bench::Rng &R) {
  const uint64_t U = R.below(1u << 16);
  return MinJoints + uint32_t(((MaxJoints - MinJoints + 1) * U * U * U) >> 48);
}

inline double uniform(bench::Rng &R, double Lo, double Hi) {
  return add(Lo, mul(sub(Hi, Lo), R.uniform01()));
}

struct Rotation {
  double Cos, Sin;
};

inline Rotation compose(Rotation A, Rotation B) {
  return {sub(mul(A.Cos, B.Cos), mul(A.Sin, B.Sin)), add(mul(A.Cos, B.Sin), mul(A.Sin, B.Cos))};
}

// A uniformly random direction: a point of the unit disc (away from its
// centre), normalized.
inline Rotation direction(bench::Rng &R) {
  for (;;) {
    const double X = uniform(R, -1, 1), Y = uniform(R, -1, 1);
    const double Norm2 = add(mul(X, X), mul(Y, Y));
    if (Norm2 > 0.0625 && Norm2 <= 1) {
      const double Norm = squareRoot(Norm2);
      return {divide(X, Norm), divide(Y, Norm)};
    }
  }
}

// The turn whose tan(angle / 2) is uniform in [-Most, Most]:
// ((1 - t^2) / (1 + t^2), 2t / (1 + t^2)).
inline Rotation bend(bench::Rng &R, double Most) {
  const double T = uniform(R, -Most, Most);
  const double T2 = mul(T, T), Denominator = add(1, T2);
  return {divide(sub(1, T2), Denominator), divide(mul(2, T), Denominator)};
}

// A starting pose, or a reaching target's: the root any way, the others
// bent by up to MaxBend.
inline void drawPose(bench::Rng &R, Rotation *Pose, uint32_t N) {
  Pose[0] = direction(R);
  for (uint32_t J = 1; J < N; ++J)
    Pose[J] = bend(R, MaxBend);
}

// The effector of Pose (forward kinematics in double), rounded to float.
inline Vec2 effector(const Rotation *Pose, const float *Length, uint32_t N) {
  Rotation Heading{1, 0};
  double X = 0, Y = 0;
  for (uint32_t J = 0; J < N; ++J) {
    Heading = compose(Heading, Pose[J]);
    X = add(X, mul(double(Length[J]), Heading.Cos));
    Y = add(Y, mul(double(Length[J]), Heading.Sin));
  }
  return {float(X), float(Y)};
}

// Chain I's links, starting pose and target, N joints (its first draw done).
inline void drawChain(bench::Rng &R, uint32_t N, float *Length, Turn *Pose, Vec2 &Target) {
  const double Kind = R.uniform01();
  double Reach = 0;
  for (uint32_t J = 0; J < N; ++J) {
    Length[J] = float(uniform(R, MinLength, MaxLength));
    Reach = add(Reach, double(Length[J]));
  }
  Rotation Start[MaxJoints], Goal[MaxJoints];
  drawPose(R, Start, N);
  for (uint32_t J = 0; J < N; ++J)
    Pose[J] = {float(Start[J].Cos), float(Start[J].Sin)};
  if (Kind < TrackingShare) {
    // Bent from the pose the solver starts from, rounded to float (read
    // back from Pose: g++ 12.2 -O2 vectorizes a loop that stores the
    // rounded turn and reloads it as if it had kept the double).
    for (uint32_t J = 0; J < N; ++J)
      Goal[J] = compose({Pose[J].Cos, Pose[J].Sin}, bend(R, MaxNudge));
    Target = effector(Goal, Length, N);
  } else if (Kind < TrackingShare + ReachingShare) {
    drawPose(R, Goal, N);
    Target = effector(Goal, Length, N);
  } else {
    const Rotation Way = direction(R);
    const double Distance = mul(Reach, uniform(R, MinOutside, MaxOutside));
    Target = {float(mul(Distance, Way.Cos)), float(mul(Distance, Way.Sin))};
  }
}

} // namespace detail

inline Batch generateBatch(uint32_t Chains, uint64_t Seed) {
  Batch B;
  B.FirstJoint.assign(Chains + 1, 0);
  bench::parallelFor(Chains, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng R = bench::itemRng(Seed, I);
      B.FirstJoint[I + 1] = detail::drawJoints(R);
    }
  });
  for (uint32_t I = 0; I < Chains; ++I)
    B.FirstJoint[I + 1] += B.FirstJoint[I];
  B.Length.resize(B.FirstJoint[Chains]);
  B.Pose.resize(B.FirstJoint[Chains]);
  B.Target.resize(Chains);
  bench::parallelFor(Chains, [&](size_t Begin, size_t End) {
    for (size_t I = Begin; I < End; ++I) {
      bench::Rng R = bench::itemRng(Seed, I);
      const uint32_t N = detail::drawJoints(R);
      const uint32_t First = B.FirstJoint[I];
      detail::drawChain(R, N, B.Length.data() + First, B.Pose.data() + First, B.Target[I]);
    }
  });
  return B;
}

} // namespace ik
