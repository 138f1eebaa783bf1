// Batched inverse kinematics by cyclic coordinate descent (CCD), as game
// engines and animation or robotics batch solvers run it for a crowd's
// limbs every frame: a thread per planar chain of 3 to 16 revolute joints
// (1-D grid, 128 threads a block). Each thread copies its chain's starting
// turns, unit complex numbers (cos, sin), into a local array and sweeps
// from the end effector to the root, each step turning one joint so that
// the effector points at the chain's target (the rotation from the dot and
// cross products of two vectors and a square root: no trigonometry), until
// the effector is within a millimetre of the target or 64 sweeps are done
// (IkSolve.h); it writes the final turns, the effector, the sweeps and the
// steps. Divergence comes from the data (IkChains.h: 2^20 chains by default,
// most limbs of 3 to 5 joints, a fifth tails of 10 to 16): a target that
// moved a little since the last frame takes a few sweeps, a new one within
// reach a few to dozens, and one out of reach (10%), or one that CCD
// approaches too slowly, runs to the cap, 64 x n steps; a warp runs as
// long as its longest solve (0 to 1,024 steps a chain) while most of its
// lanes are done. Compute-bound: 12 bytes in and 8 out per joint, 8 in and
// 16 out per chain, against dozens of sweeps of n steps of some 50 float
// operations each, a correctly rounded square root and division among
// them, plus the sweep's forward kinematics (a complex product a joint);
// a step's memory is its joint's 8-byte turn read and written back in the
// thread's local array (a 128-byte stack frame) and a link length read
// twice, which stay in L1.
//
// Hand-written regrouping: chains sorted by the joint steps their solve
// takes, exactly: a key kernel runs the same solve once and counts them, so
// computing the key costs about a launch.
#include "../common/BenchApp.h"
#include "../common/DeviceBuffer.h"
#include "../common/WarpSteps.h"
#include "IkChains.h"
#include "IkReference.h"
#include "IkSolve.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace ik {

struct DeviceBatch {
  uint32_t Chains;
  const uint32_t *FirstJoint;
  const float *Length;
  const Turn *Pose;
  const Vec2 *Target;
};

// Chain I solved from its starting pose (copied into Joint, room for
// MaxJoints); N gets its joint count and the solution is returned.
__device__ inline __attribute__((always_inline)) Solution
solveFromPose(const DeviceBatch &B, uint32_t I, Turn *Joint, uint32_t &N) {
  const uint32_t First = B.FirstJoint[I];
  N = B.FirstJoint[I + 1] - First;
  for (uint32_t J = 0; J < N; ++J)
    Joint[J] = B.Pose[First + J];
  return solveChain(Joint, B.Length + First, N, B.Target[I]);
}

// Chain I solved: its solution goes to Solutions[I], its turns to its
// joints' slice of Turns.
__device__ inline __attribute__((always_inline)) void
storeSolution(const DeviceBatch &B, uint32_t I, Solution *Solutions, Turn *Turns) {
  Turn Joint[MaxJoints];
  uint32_t N;
  Solutions[I] = solveFromPose(B, I, Joint, N);
  Turn *Out = Turns + B.FirstJoint[I];
  for (uint32_t J = 0; J < N; ++J)
    Out[J] = Joint[J];
}

} // namespace ik

using ik::DeviceBatch;
using ik::Solution;
using ik::Turn;

__global__ void ikSolve(DeviceBatch B, Solution *__restrict__ Solutions, Turn *__restrict__ Turns) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < B.Chains)
    ik::storeSolution(B, I, Solutions, Turns);
}

// The hand-written copy: thread T solves chain Order[T].
__global__ void ikSolveSorted(DeviceBatch B, const uint32_t *__restrict__ Order,
                              Solution *__restrict__ Solutions, Turn *__restrict__ Turns) {
  uint32_t T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T < B.Chains)
    ik::storeSolution(B, Order[T], Solutions, Turns);
}

// The key: the solve run for its step count alone, the turns discarded.
__global__ void ikSteps(DeviceBatch B, uint32_t *__restrict__ Keys) {
  uint32_t I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < B.Chains) {
    Turn Joint[ik::MaxJoints];
    uint32_t N;
    Keys[I] = ik::solveFromPose(B, I, Joint, N).Steps;
  }
}

namespace {

// Joints, sweeps and joint steps per chain, and how much of a warp (32
// consecutive chains) the steps keep busy: all steps over 32 times the
// warps' most, in chain order and with chains sorted by their joint count
// (what a key that does not solve would know).
void printSolves(const ik::Batch &In, const std::vector<Solution> &Want) {
  const uint32_t N = In.chains();
  std::vector<uint32_t> Steps(N);
  uint64_t Total = 0, Sweeps = 0, Capped = 0;
  for (uint32_t I = 0; I < N; ++I) {
    Steps[I] = Want[I].Steps;
    Total += Steps[I];
    Sweeps += Want[I].Sweeps;
    Capped += Want[I].Steps == ik::MaxSweeps * In.joints(I);
  }
  const uint64_t ChainOrder = bench::warpSteps(Steps);
  // Steps in the order of a stable sort by joints, descending.
  std::vector<uint32_t> ByJoints;
  ByJoints.reserve(N);
  for (uint32_t Joints = ik::MaxJoints; Joints >= ik::MinJoints; --Joints)
    for (uint32_t I = 0; I < N; ++I)
      if (In.joints(I) == Joints)
        ByJoints.push_back(Steps[I]);
  const uint64_t JointOrder = bench::warpSteps(ByJoints);
  std::sort(Steps.begin(), Steps.end());
  std::fprintf(stderr,
               "ik: %.2f joints and %.2f sweeps per chain, %.1f%% of the chains at the cap; %u "
               "to %u joint steps per chain (median %u, mean %.1f); warps of 32 use %.1f%% of "
               "their lanes (%.1f%% sorted by joints)\n",
               double(In.Length.size()) / N, double(Sweeps) / N, 100.0 * Capped / N, Steps.front(),
               Steps.back(), Steps[N / 2], double(Total) / N, 100.0 * Total / (32.0 * ChainOrder),
               100.0 * Total / (32.0 * JointOrder));
}

std::string solutionText(const Solution &S) {
  char Text[160];
  std::snprintf(Text, sizeof Text, "effector (%a, %a) after %u sweeps and %u steps", S.Effector.X,
                S.Effector.Y, S.Sweeps, S.Steps);
  return Text;
}

} // namespace

int main(int argc, char **argv) {
  const bench::AppInfo App{"ik",
                           "cyclic coordinate descent inverse kinematics of a planar chain of "
                           "3 to 16 joints per thread",
                           "chains", 1ull << 20, true, 1ull << 24};
  bench::Options O = bench::parseOptions(argc, argv, App);
  const uint32_t N = uint32_t(O.Size);
  const ik::Batch In = ik::generateBatch(N, O.Seed);
  if (!O.Quiet)
    std::fprintf(stderr, "ik: %u chains, %.2f joints each on average\n", N,
                 double(In.Length.size()) / N);

  bench::DeviceBuffer<uint32_t> FirstJoint(In.FirstJoint);
  bench::DeviceBuffer<float> Length(In.Length);
  bench::DeviceBuffer<Turn> Pose(In.Pose), Turns(In.Pose.size());
  bench::DeviceBuffer<ik::Vec2> Target(In.Target);
  bench::DeviceBuffer<Solution> Solutions(N);
  const DeviceBatch B{N, FirstJoint.get(), Length.get(), Pose.get(), Target.get()};
  const unsigned Block = 128, Grid = (N + Block - 1) / Block;
  bench::RunResult R;
  R.Threads = N;
  if (!O.Handwritten) {
    R.Kernel = bench::kernelName((const void *)ikSolve);
    R.TimesMs = bench::timeLaunches(
        [&] { ikSolve<<<Grid, Block>>>(B, Solutions.get(), Turns.get()); }, O.Repeat);
  } else {
    bench::DeviceBuffer<uint32_t> Keys(N);
    uint32_t *Order = nullptr;
    R.RegroupMs = bench::timeOnceMs([&] { ikSteps<<<Grid, Block>>>(B, Keys.get()); });
    R.RegroupMs += bench::sortByKeyDescending(Keys.get(), N, &Order);
    R.Kernel = bench::kernelName((const void *)ikSolveSorted);
    R.TimesMs = bench::timeLaunches(
        [&] { ikSolveSorted<<<Grid, Block>>>(B, Order, Solutions.get(), Turns.get()); }, O.Repeat);
    BENCH_CUDA(cudaFree(Order));
  }
  // The checksum covers the solutions, then the turns: downloaded into one
  // buffer, which the check reads too.
  const size_t SolutionBytes = size_t(N) * sizeof(Solution);
  const size_t TurnBytes = In.Pose.size() * sizeof(Turn);
  std::vector<unsigned char> Bytes(SolutionBytes + TurnBytes);
  BENCH_CUDA(cudaMemcpy(Bytes.data(), Solutions.get(), SolutionBytes, cudaMemcpyDeviceToHost));
  BENCH_CUDA(
      cudaMemcpy(Bytes.data() + SolutionBytes, Turns.get(), TurnBytes, cudaMemcpyDeviceToHost));
  R.Checksum = bench::fnv1a64(Bytes.data(), Bytes.size());

  if (O.Check) {
    if (!O.Quiet)
      std::fprintf(stderr, "ik: checking against the CPU reference\n");
    const ik::Solved Want = ik::referenceSolutions(In);
    if (!O.Quiet)
      printSolves(In, Want.Solutions);
    std::vector<Solution> Got(N);
    std::vector<Turn> GotTurns(In.Pose.size());
    std::memcpy(Got.data(), Bytes.data(), SolutionBytes);
    std::memcpy(GotTurns.data(), Bytes.data() + SolutionBytes, TurnBytes);
    // Bytes compared, so that equal floats mean equal bits.
    for (uint32_t I = 0; I < N; ++I) {
      const size_t First = In.FirstJoint[I];
      const bool TurnsEqual = std::memcmp(GotTurns.data() + First, Want.Turns.data() + First,
                                          In.joints(I) * sizeof(Turn)) == 0;
      if (std::memcmp(&Got[I], &Want.Solutions[I], sizeof(Solution)) != 0 || !TurnsEqual)
        bench::requireMatch(false, "chain " + std::to_string(I) + " (" +
                                       std::to_string(In.joints(I)) + " joints): GPU " +
                                       solutionText(Got[I]) + ", CPU " +
                                       solutionText(Want.Solutions[I]) + ", turns " +
                                       (TurnsEqual ? "equal" : "differ"));
    }
    // Equal solutions could still be wrong in the same way: each must be
    // what CCD may end with, judged in double.
    for (uint32_t I = 0; I < N; ++I) {
      const std::string Problem =
          ik::solutionProblem(In, I, GotTurns.data() + In.FirstJoint[I], Got[I]);
      if (!Problem.empty())
        bench::requireMatch(false, "chain " + std::to_string(I) + ": " + Problem);
    }
    R.Checked = true;
  }
  bench::printResult(App, O, R);
  return 0;
}
