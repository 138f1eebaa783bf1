// The per-chain work of the ik app, shared by its kernels and its CPU
// reference: inverse kinematics of one planar chain of revolute joints by
// cyclic coordinate descent (CCD), as game engines and animation or robotics
// batch solvers run it for many characters at once.
//
// Joint j sits at the end of link j - 1 (joint 0 at the origin) and turns
// link j, of length L_j, relative to link j - 1 (link 0 relative to the x
// axis); the end of the last link is the effector. A joint's turn is a unit
// complex number (cos, sin), so composing turns is a complex product and no
// angle, hence no trigonometry, ever appears. A sweep starts from the
// effector and the last link's direction (forward kinematics from the
// root) and visits the joints from the last to the root, finding each
// joint's position on the way back (joint j = joint j + 1 - L_j times link
// j's direction, which the turn of joint j takes back to link j - 1's):
// each step turns joint j by the rotation that takes the direction from
// joint j to the effector onto the direction from joint j to the target,
// (a . b, a x b) / |a||b| for a = effector - joint and b = target - joint,
// and moves the effector with it (the joints before j stay where the sweep
// found them). The solve stops at the first step that brings the effector
// within Tolerance of the target, or after MaxSweeps sweeps: a target out
// of reach runs to the cap, and so does one that CCD approaches too slowly,
// mostly near the edge of the chain's reach, where CCD is known to crawl.
// Threads diverge on the sweeps (0 to 64) and on the joints per sweep (3 to
// 16), the last sweep cut short where the target is reached: 0 to 1,024
// steps a chain. The thread's local array holds the turns alone (8 bytes a
// joint), read and written back once a step and read once more by the
// sweep's forward kinematics.
//
// Every float operation goes through ../common/RoundedFloat.h (correctly
// rounded +, -, *, / and square root; no fma, no library function): host
// and GPU execute the same operations in the same order, so the CPU
// reference is equal bit for bit.
#pragma once

#include "../common/RoundedFloat.h"

#include <cstdint>

namespace ik {

#if defined(__CUDACC__)
#define IK_HD __host__ __device__
#else
#define IK_HD
#endif

constexpr uint32_t MinJoints = 3, MaxJoints = 16, MaxSweeps = 64;
// About a millimetre for links of 10 to 40 cm (IkChains.h); a power of two,
// so its square is exact.
constexpr float Tolerance = 0x1p-10f;
constexpr float ToleranceSquared = Tolerance * Tolerance;

struct Vec2 {
  float X, Y;
};

// A unit complex number: the rotation by the angle whose cosine and sine
// these are.
struct Turn {
  float Cos, Sin;
};

// What a thread writes besides its chain's turns.
struct Solution {
  Vec2 Effector;
  uint32_t Sweeps; // begun; 0 when the starting pose is within Tolerance
  uint32_t Steps;  // joint steps over all sweeps
};

using namespace bench::rounded; // add, sub, mul, divide, squareRoot

// A turned by B: the complex product.
IK_HD inline Turn compose(Turn A, Turn B) {
  return {sub(mul(A.Cos, B.Cos), mul(A.Sin, B.Sin)), add(mul(A.Cos, B.Sin), mul(A.Sin, B.Cos))};
}

// Back to unit length by one Newton step for 1 / |T| (T is within a few
// roundings of it): the turns would otherwise drift from unit length by a
// rounding or so a step and stretch the links over the sweeps.
IK_HD inline Turn renormalize(Turn T) {
  const float Norm2 = add(mul(T.Cos, T.Cos), mul(T.Sin, T.Sin));
  const float Scale = sub(1.5f, mul(0.5f, Norm2));
  return {mul(T.Cos, Scale), mul(T.Sin, Scale)};
}

IK_HD inline bool isWithinTolerance(Vec2 Effector, Vec2 Target) {
  const float Dx = sub(Target.X, Effector.X), Dy = sub(Target.Y, Effector.Y);
  return add(mul(Dx, Dx), mul(Dy, Dy)) <= ToleranceSquared;
}

// The effector and the last link's direction of the turns Joint[0 .. N - 1]
// (forward kinematics).
struct Tip {
  Vec2 Effector;
  Turn Heading;
};

IK_HD inline Tip placeEffector(const Turn *Joint, const float *Length, uint32_t N) {
  Turn Heading{1.0f, 0.0f}; // link j's direction
  Vec2 P{0.0f, 0.0f};
  for (uint32_t J = 0; J < N; ++J) {
    Heading = compose(Heading, Joint[J]);
    P = {add(P.X, mul(Length[J], Heading.Cos)), add(P.Y, mul(Length[J], Heading.Sin))};
  }
  return {P, Heading};
}

// Solves the chain of N joints (MinJoints <= N <= MaxJoints) with link
// lengths Length towards Target, turning Joint[0 .. N - 1] in place. Always
// inlined: each kernel then holds the sweep loops itself, where divopt's
// profile counts them, as the other apps' kernels hold their work.
IK_HD inline __attribute__((always_inline)) Solution solveChain(Turn *Joint, const float *Length,
                                                                uint32_t N, Vec2 Target) {
  Tip Start = placeEffector(Joint, Length, N);
  Vec2 Effector = Start.Effector;
  uint32_t Sweeps = 0, Steps = 0;
  bool Reached = isWithinTolerance(Effector, Target);
  while (!Reached && Sweeps < MaxSweeps) {
    ++Sweeps;
    // Joint J's position and link J's direction as the sweep found them
    // (the steps before only turned the links after J), found walking back
    // from the effector, so that the local array holds the turns alone.
    Vec2 O = Effector;
    Turn Heading = Start.Heading;
    for (uint32_t J = N; J-- > 0 && !Reached;) {
      ++Steps;
      const Turn Q = Joint[J];
      O = {sub(O.X, mul(Length[J], Heading.Cos)), sub(O.Y, mul(Length[J], Heading.Sin))};
      Heading = compose(Heading, {Q.Cos, -Q.Sin}); // link J - 1's
      const float Ax = sub(Effector.X, O.X), Ay = sub(Effector.Y, O.Y);
      const float Bx = sub(Target.X, O.X), By = sub(Target.Y, O.Y);
      const float Dot = add(mul(Ax, Bx), mul(Ay, By));
      const float Cross = sub(mul(Ax, By), mul(Ay, Bx));
      const float Norm2 = add(mul(Dot, Dot), mul(Cross, Cross));
      // Zero only when the effector or the target sits on the joint, where
      // any turn is as good as none.
      if (Norm2 > 0.0f) {
        const float Inverse = divide(1.0f, squareRoot(Norm2));
        const Turn R{mul(Dot, Inverse), mul(Cross, Inverse)};
        Joint[J] = renormalize(compose(Q, R));
        Effector = {add(O.X, sub(mul(R.Cos, Ax), mul(R.Sin, Ay))),
                    add(O.Y, add(mul(R.Sin, Ax), mul(R.Cos, Ay)))};
      }
      Reached = isWithinTolerance(Effector, Target);
    }
    // A fresh start for the next sweep; after the last, the effector of
    // the turns returned rather than the one the steps carried along.
    if (!Reached) {
      Start = placeEffector(Joint, Length, N);
      Effector = Start.Effector;
      Reached = isWithinTolerance(Effector, Target);
    }
  }
  return {Effector, Sweeps, Steps};
}

} // namespace ik
