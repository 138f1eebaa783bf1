// Fitting one block's count on synthetic data with known coefficients: noisy
// linear counts recover beta, step and loop-from-c shapes fit exactly with
// the piecewise terms, and singular designs and constant inputs drop terms
// with a reason instead of failing.
#include "predict/BlockFit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace divopt {
namespace {

// Threads [Begin, End) with NumFeatures features from Feature(f, t) and one
// block counted by Count(features, t).
Observations synthetic(uint64_t Begin, uint64_t End, unsigned NumFeatures,
                       const std::function<double(unsigned, uint64_t)> &Feature,
                       const std::function<double(const std::vector<double> &, uint64_t)> &Count) {
  Observations O;
  O.Features.resize(NumFeatures);
  O.Counts.resize(1);
  for (uint64_t T = Begin; T < End; ++T) {
    std::vector<double> F(NumFeatures);
    for (unsigned I = 0; I < NumFeatures; ++I)
      O.Features[I].push_back(F[I] = Feature(I, T));
    O.Tid.push_back(double(T));
    O.Counts[0].push_back(Count(F, T));
  }
  return O;
}

double coefficientOf(const BlockModel &M, Term T) {
  for (size_t I = 0; I < M.Terms.size(); ++I)
    if (M.Terms[I] == T)
      return M.Coefficients[I];
  ADD_FAILURE() << "no such term in the model";
  return NAN;
}

const Term Intercept{Term::Kind::Intercept, TidInput, 0};
Term linear(int Input) { return {Term::Kind::Linear, Input, 0}; }

TEST(FitBlock, NoisyLinearCountsRecoverTheCoefficients) {
  std::mt19937 Rng(7);
  std::uniform_real_distribution<double> X(0, 100);
  std::normal_distribution<double> Noise(0, 0.1);
  std::vector<std::vector<double>> Values(2, std::vector<double>(4096));
  for (auto &Row : Values)
    for (double &V : Row)
      V = X(Rng);
  auto Feature = [&](unsigned F, uint64_t T) { return Values[F][T]; };
  auto Count = [&](const std::vector<double> &F, uint64_t T) {
    return 3 + 2 * F[0] - 0.5 * F[1] + 0.01 * double(T) + Noise(Rng);
  };
  Observations Train = synthetic(0, 256, 2, Feature, Count);
  Observations HeldOut = synthetic(256, 4096, 2, Feature, Count);
  BlockModel M = fitBlock(0, {0, 1, TidInput}, Train, HeldOut);
  ASSERT_TRUE(M.Predictable) << M.Why;
  EXPECT_NEAR(coefficientOf(M, Intercept), 3, 0.1);
  EXPECT_NEAR(coefficientOf(M, linear(0)), 2, 0.002);
  EXPECT_NEAR(coefficientOf(M, linear(1)), -0.5, 0.002);
  EXPECT_NEAR(coefficientOf(M, linear(TidInput)), 0.01, 0.001);
  EXPECT_EQ(M.Stats.Observations, 256u);
  EXPECT_NEAR(M.Stats.Mse, 0.01, 0.004); // the noise's variance
  EXPECT_GT(M.Stats.R2, 0.999);
  EXPECT_EQ(M.Stats.HeldOutObservations, 3840u);
  EXPECT_NEAR(M.Stats.HeldOutMse, 0.01, 0.005); // extrapolating tid 16x past training
}

TEST(FitBlock, StepCountIsFittedExactlyWithAnIndicator) {
  // if (x > 7) { block }: a 0/1 count no line fits.
  auto Feature = [](unsigned, uint64_t T) { return double((T * 7919) % 16); };
  auto Count = [](const std::vector<double> &F, uint64_t) { return F[0] > 7 ? 1.0 : 0.0; };
  Observations Train = synthetic(0, 128, 1, Feature, Count);
  Observations HeldOut = synthetic(128, 4096, 1, Feature, Count);
  BlockModel M = fitBlock(0, {0}, Train, HeldOut);
  ASSERT_TRUE(M.Predictable);
  EXPECT_NEAR(coefficientOf(M, {Term::Kind::Step, 0, 7}), 1, 1e-9);
  EXPECT_LT(M.Stats.Mse, 1e-18);
  EXPECT_LT(M.Stats.HeldOutMse, 1e-18);
  EXPECT_NEAR(M.Stats.R2, 1, 1e-12);
}

TEST(FitBlock, LoopFromAConstantIsFittedExactlyWithAHinge) {
  // for (i = 3; i < x; ++i): max(0, x - 3) iterations.
  auto Feature = [](unsigned, uint64_t T) { return double((T * 31) % 21); };
  auto Count = [](const std::vector<double> &F, uint64_t) { return std::max(0.0, F[0] - 3); };
  Observations Train = synthetic(0, 256, 1, Feature, Count);
  Observations HeldOut = synthetic(256, 2048, 1, Feature, Count);
  BlockModel M = fitBlock(0, {0}, Train, HeldOut);
  EXPECT_LT(M.Stats.HeldOutMse, 1e-18);
  for (double X : {0.0, 2.0, 3.0, 4.0, 20.0}) {
    Observations One = synthetic(0, 1, 1, [&](unsigned, uint64_t) { return X; }, Count);
    EXPECT_NEAR(predictObservation(M, One, 0), std::max(0.0, X - 3), 1e-9) << "x = " << X;
  }
}

TEST(FitBlock, ExactLinearFitAddsNoTerms) {
  // A plain loop over trips[tid]: no thread-id or piecewise term may sneak in.
  auto Feature = [](unsigned, uint64_t T) { return double((T * 13) % 50); };
  auto Count = [](const std::vector<double> &F, uint64_t) { return F[0] + 1; };
  BlockModel M = fitBlock(0, {0}, synthetic(0, 256, 1, Feature, Count),
                          synthetic(256, 512, 1, Feature, Count));
  ASSERT_EQ(M.Terms.size(), 2u);
  EXPECT_NEAR(coefficientOf(M, Intercept), 1, 1e-9);
  EXPECT_NEAR(coefficientOf(M, linear(0)), 1, 1e-9);
}

TEST(FitBlock, CollinearInputIsDroppedWithAReason) {
  // Feature 1 is always twice feature 0: the design is singular.
  auto Feature = [](unsigned F, uint64_t T) { return double((T % 40) * (F + 1)); };
  auto Count = [](const std::vector<double> &F, uint64_t) { return 5 + F[0]; };
  BlockModel M = fitBlock(0, {0, 1}, synthetic(0, 256, 2, Feature, Count),
                          synthetic(256, 1024, 2, Feature, Count));
  ASSERT_TRUE(M.Predictable);
  ASSERT_EQ(M.Dropped.size(), 1u);
  EXPECT_EQ(M.Dropped[0].T, linear(1));
  EXPECT_NE(M.Dropped[0].Why.find("linear combination"), std::string::npos) << M.Dropped[0].Why;
  EXPECT_LT(M.Stats.HeldOutMse, 1e-18);
}

TEST(FitBlock, ConstantInputKeepsTheIntercept) {
  // n is 1000 in every training thread: the intercept must carry the count,
  // not n (which would scale the prediction with another n).
  auto Feature = [](unsigned F, uint64_t T) { return F == 0 ? double(T % 9) : 1000.0; };
  auto Count = [](const std::vector<double> &F, uint64_t) { return 2 + F[0]; };
  BlockModel M = fitBlock(0, {0, 1}, synthetic(0, 256, 2, Feature, Count), {});
  ASSERT_EQ(M.Dropped.size(), 1u);
  EXPECT_EQ(M.Dropped[0].T, linear(1));
  EXPECT_NE(M.Dropped[0].Why.find("constant"), std::string::npos) << M.Dropped[0].Why;
  EXPECT_NEAR(coefficientOf(M, Intercept), 2, 1e-9);
  EXPECT_EQ(M.Stats.HeldOutObservations, 0u);
  EXPECT_TRUE(std::isnan(M.Stats.HeldOutMse));
}

TEST(FitBlock, FewerObservationsThanTermsDropsTheRest) {
  auto Feature = [](unsigned F, uint64_t T) { return double(T * T + F * 3 + 1); };
  auto Count = [](const std::vector<double> &F, uint64_t) { return F[0]; };
  BlockModel M = fitBlock(0, {0, 1, TidInput}, synthetic(0, 2, 2, Feature, Count), {});
  ASSERT_TRUE(M.Predictable);
  EXPECT_EQ(M.Terms.size(), 2u);
  ASSERT_EQ(M.Dropped.size(), 2u);
  EXPECT_NE(M.Dropped[1].Why.find("fewer observations (2) than terms"), std::string::npos)
      << M.Dropped[1].Why;
  EXPECT_LT(M.Stats.Mse, 1e-18);
}

TEST(FitBlock, NoObservationsIsUnpredictable) {
  Observations Empty;
  Empty.Counts.resize(1);
  BlockModel M = fitBlock(0, {}, Empty, Empty);
  EXPECT_FALSE(M.Predictable);
  EXPECT_EQ(M.Why, "no training observations");
}

} // namespace
} // namespace divopt
