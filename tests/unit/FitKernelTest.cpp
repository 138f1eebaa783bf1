// A kernel's launches in, its model out: training on the first thread block,
// held-out error on the rest, unpredictable blocks and launches without
// feature values; then prediction from the fitted model.
#include "FitTestData.h"
#include "predict/FitKernel.h"
#include "predict/ModelCheck.h"
#include "predict/PredictBbvs.h"

#include <gtest/gtest.h>

namespace divopt {
namespace {
using test::kernelWithFeatures;
using test::launchWithFeatures;

// Skewed loop: trips[tid] in 0..40; block 0 the entry (1), block 1 the loop
// body (trips), block 2 the guard `if (tid < n)`, block 3 a count the notes
// call unpredictable (here 2 everywhere).
LaunchProfile skewedLaunch(uint32_t Blocks, double N, uint64_t Salt) {
  KernelNote K = kernelWithFeatures();
  return launchWithFeatures(
      K, Blocks, 64,
      [&](uint64_t T) {
        return std::vector<double>{double((T * 7 + Salt) % 41), N, double(T)};
      },
      [](unsigned B, const std::vector<double> &F, uint64_t T) -> uint32_t {
        switch (B) {
        case 0:
          return 1;
        case 1:
          return uint32_t(F[0]);
        case 2:
          return T < F[1] ? 1 : 0;
        default:
          return 2;
        }
      });
}

TEST(FitKernel, TrainsOnTheFirstBlockAndPredictsTheOthers) {
  LaunchProfile A = skewedLaunch(16, 1e6, 0);
  KernelModel M = fitKernel({&A});
  EXPECT_EQ(M.Name, A.Header.Kernel);
  EXPECT_EQ(M.NotesDigest, A.Header.NotesDigest);
  EXPECT_EQ(M.NumFeatures, 3u);
  ASSERT_EQ(M.Blocks.size(), 4u);
  for (unsigned B = 0; B < 3; ++B) {
    SCOPED_TRACE("block " + std::to_string(B));
    ASSERT_TRUE(M.Blocks[B].Predictable) << M.Blocks[B].Why;
    EXPECT_EQ(M.Blocks[B].Stats.Observations, 64u);
    EXPECT_EQ(M.Blocks[B].Stats.HeldOutObservations, 15u * 64);
    EXPECT_LT(M.Blocks[B].Stats.HeldOutMse, 1e-18);
  }
  EXPECT_FALSE(M.Blocks[3].Predictable);
  EXPECT_EQ(M.Blocks[3].Why, "its count depends on a value computed in a loop");
  EXPECT_FALSE(M.Blocks[3].Matters); // 2 in every thread
  EXPECT_EQ(M.Blocks[3].Constant, 2);
  EXPECT_EQ(M.unusableBecause(), "");
  EXPECT_TRUE(M.needsFeatures());

  // Another input: every thread's BBV as the launch counted it.
  LaunchProfile B = skewedLaunch(32, 1e6, 5);
  std::vector<uint32_t> Counts(B.Counts.size());
  predictBbvs(M, B.Features.data(), B.Header.threads(), Counts.data(), 3);
  EXPECT_EQ(Counts, B.Counts);
}

TEST(FitKernel, MoreTrainingBlocksLeaveFewerHeldOut) {
  LaunchProfile A = skewedLaunch(4, 1e6, 0);
  FitOptions O;
  O.TrainBlocks = 4;
  KernelModel M = fitKernel({&A}, O);
  EXPECT_EQ(M.Blocks[1].Stats.Observations, 256u);
  EXPECT_EQ(M.Blocks[1].Stats.HeldOutObservations, 0u);
  EXPECT_EQ(M.TrainBlocks, 4u);
}

TEST(FitKernel, UnpredictableBlockThatVariesMakesTheModelUnusable) {
  KernelNote K = kernelWithFeatures();
  LaunchProfile A = launchWithFeatures(
      K, 2, 32, [](uint64_t T) { return std::vector<double>{1, 2, double(T)}; },
      [](unsigned B, const std::vector<double> &, uint64_t T) -> uint32_t {
        return B == 3 ? uint32_t(T % 3) : 1;
      });
  KernelModel M = fitKernel({&A});
  EXPECT_TRUE(M.Blocks[3].Matters);
  EXPECT_EQ(M.unusableBecause(),
            "block 3 cannot be predicted (its count depends on a value computed in a loop)");
}

TEST(FitKernel, LaunchesWithoutFeaturesLeaveFeatureBlocksUnpredictable) {
  LaunchProfile A = skewedLaunch(2, 1e6, 0);
  A.Features.clear();
  A.NumFeatures = 0;
  KernelModel M = fitKernel({&A});
  EXPECT_TRUE(M.Blocks[0].Predictable); // intercept only
  EXPECT_FALSE(M.Blocks[1].Predictable);
  EXPECT_NE(M.Blocks[1].Why.find("1 of 1 profiled launches hold no feature values"),
            std::string::npos)
      << M.Blocks[1].Why;
  EXPECT_TRUE(M.Blocks[1].Matters);
}

TEST(FitKernel, DifferentBuildsAreRefused) {
  LaunchProfile A = skewedLaunch(2, 1e6, 0), B = skewedLaunch(2, 1e6, 0);
  B.Header.NotesDigest ^= 1;
  EXPECT_THROW(fitKernel({&A, &B}), FitError);
}

TEST(ModelCheck, ExactModelHasNoErrorOnAnotherInput) {
  LaunchProfile A = skewedLaunch(4, 1e6, 0), B = skewedLaunch(8, 1e6, 5);
  KernelModel M = fitKernel({&A});
  ModelCheck C = checkModel(M, {&B}, 2);
  ASSERT_EQ(C.Why, "");
  EXPECT_EQ(C.Launches, 1u);
  EXPECT_EQ(C.Threads, 8u * 64);
  EXPECT_EQ(C.MeanAbsError, 0);
  EXPECT_EQ(C.RelativeError, 0);
  EXPECT_EQ(C.ExactThreads, 1);
}

TEST(ModelCheck, ErrorsAreAveragedOverThreadsAndBlocks) {
  LaunchProfile A = skewedLaunch(4, 1e6, 0), B = skewedLaunch(8, 1e6, 5);
  KernelModel M = fitKernel({&A});
  // Block 0 runs once per thread; predicting 3 is off by 2 in every thread,
  // one of the 4 blocks.
  ASSERT_EQ(M.Blocks[0].Terms.size(), 1u);
  M.Blocks[0].Coefficients[0] = 3;
  ModelCheck C = checkModel(M, {&B, &A});
  ASSERT_EQ(C.Why, "");
  EXPECT_EQ(C.Launches, 2u);
  EXPECT_EQ(C.Threads, 12u * 64);
  EXPECT_DOUBLE_EQ(C.MeanAbsError, 2.0 / 4);
  EXPECT_EQ(C.ExactThreads, 0);
  double Counts = 0;
  for (const LaunchProfile *P : {&A, &B})
    for (uint32_t V : P->Counts)
      Counts += V;
  EXPECT_DOUBLE_EQ(C.RelativeError, 2.0 * 12 * 64 / Counts);
}

TEST(ModelCheck, LaunchesItCannotPredictSayWhy) {
  LaunchProfile A = skewedLaunch(2, 1e6, 0), B = skewedLaunch(2, 1e6, 1);
  KernelModel M = fitKernel({&A});
  EXPECT_EQ(checkModel(M, {}).Why, "no launch of _Z6skewedPKiPfi to check");
  LaunchProfile Other = B;
  Other.Header.NotesDigest ^= 1;
  EXPECT_NE(checkModel(M, {&Other}).Why.find("notes digest differs"), std::string::npos);
  LaunchProfile Bare = B;
  Bare.Features.clear();
  Bare.NumFeatures = 0;
  EXPECT_NE(checkModel(M, {&Bare}).Why.find("holds no feature values"), std::string::npos);
  M.Blocks[3].Matters = true;
  EXPECT_NE(checkModel(M, {&B}).Why.find("the model cannot predict"), std::string::npos);
}

TEST(PredictBbvs, RoundsToNonNegativeCounts) {
  EXPECT_EQ(roundCount(2.49), 2u);
  EXPECT_EQ(roundCount(2.51), 3u);
  EXPECT_EQ(roundCount(-7.2), 0u);
  EXPECT_EQ(roundCount(NAN), 0u);
  EXPECT_EQ(roundCount(1e12), UINT32_MAX);
}

TEST(PredictBbvs, ThreadIdTermsUseTheGlobalThreadId) {
  KernelModel M;
  BlockModel B;
  B.Predictable = true;
  B.Terms = {{Term::Kind::Intercept, TidInput, 0}, {Term::Kind::Step, TidInput, 99999.5}};
  B.Coefficients = {1, 4};
  M.Blocks = {B};
  EXPECT_FALSE(M.needsFeatures());
  std::vector<uint32_t> Counts(200000);
  predictBbvs(M, nullptr, Counts.size(), Counts.data(), 4);
  EXPECT_EQ(Counts[0], 1u);
  EXPECT_EQ(Counts[99999], 1u);
  EXPECT_EQ(Counts[100000], 5u);
  EXPECT_EQ(Counts[199999], 5u);
}

} // namespace
} // namespace divopt
