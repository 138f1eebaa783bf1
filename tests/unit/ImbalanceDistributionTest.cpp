// Work distributions: the conventions that reproduce seed 001 Table I,
// truncation of infinite supports, the DIST syntax, and every bad parameter.
#include "imbalance/DistributionSpec.h"
#include "imbalance/ParametricDistributions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace divopt::imbalance {
namespace {

double total(const WorkDistribution &W) {
  return std::accumulate(W.Mass.begin(), W.Mass.end(), 0.0);
}

// The message of the std::exception F throws, or "" when it throws none.
template <typename F> std::string errorOf(F &&Call) {
  try {
    Call();
  } catch (const std::exception &E) {
    return E.what();
  }
  return "";
}

TEST(ImbalanceDistribution, BinomialIsExactOnZeroToN) {
  WorkDistribution W = binomialDistribution(40, 0.5);
  EXPECT_EQ(W.Lo, 0u);
  EXPECT_EQ(W.hi(), 40u);
  EXPECT_EQ(W.TruncatedMass, 0.0);
  EXPECT_NEAR(total(W), 1.0, 1e-12);
  EXPECT_NEAR(W.mean(), 20.0, 1e-10);
  EXPECT_NEAR(W.variance(), 10.0, 1e-9);
  EXPECT_NEAR(W.Mass[0], std::ldexp(1.0, -40), 1e-25);
  EXPECT_EQ(W.Description, "binomial(n=40, p=0.5)");
}

TEST(ImbalanceDistribution, GeometricCountsTrialsFromOne) {
  WorkDistribution W = geometricDistribution(0.05, 1e-6);
  EXPECT_EQ(W.Lo, 1u);
  // The smallest k with 0.95^k <= 1e-6 is 270.
  EXPECT_EQ(W.hi(), 270u);
  EXPECT_NEAR(W.TruncatedMass, std::pow(0.95, 270), 1e-15);
  EXPECT_LE(W.TruncatedMass, 1e-6);
  EXPECT_NEAR(total(W), 1.0, 1e-12);
  // Renormalized: P(W = 1) = 0.05 / (1 - tail).
  EXPECT_NEAR(W.Mass[0], 0.05 / (1 - W.TruncatedMass), 1e-15);
  EXPECT_NEAR(W.mean(), 20.0, 1e-3);
}

TEST(ImbalanceDistribution, PoissonTailCutAtEpsilon) {
  WorkDistribution Coarse = poissonDistribution(30, 1e-3);
  WorkDistribution Fine = poissonDistribution(30, 1e-9);
  EXPECT_EQ(Coarse.Lo, 0u);
  EXPECT_LT(Coarse.hi(), Fine.hi());
  EXPECT_LE(Coarse.TruncatedMass, 1e-3);
  EXPECT_LE(Fine.TruncatedMass, 1e-9);
  EXPECT_NEAR(Fine.mean(), 30.0, 1e-6);
  EXPECT_NEAR(Fine.variance(), 30.0, 1e-5);
}

TEST(ImbalanceDistribution, UniformIncludesBothEnds) {
  WorkDistribution W = uniformDistribution(20, 40);
  EXPECT_EQ(W.Lo, 20u);
  EXPECT_EQ(W.hi(), 40u);
  for (double P : W.Mass)
    EXPECT_DOUBLE_EQ(P, 1.0 / 21);
  WorkDistribution One = uniformDistribution(7, 7);
  EXPECT_EQ(One.Mass.size(), 1u);
}

TEST(ImbalanceDistribution, NegativeBinomialCountsFailures) {
  WorkDistribution W = negativeBinomialDistribution(5, 0.3, 1e-9);
  EXPECT_EQ(W.Lo, 0u);
  EXPECT_NEAR(W.Mass[0], std::pow(0.3, 5) / (1 - W.TruncatedMass), 1e-15);
  EXPECT_NEAR(W.mean(), 5 * 0.7 / 0.3, 1e-6);
  EXPECT_NEAR(W.variance(), 5 * 0.7 / (0.3 * 0.3), 1e-4);
  // A non-integer r is a valid negative binomial too.
  EXPECT_NEAR(negativeBinomialDistribution(2.5, 0.5, 1e-9).mean(), 2.5, 1e-6);
}

TEST(ImbalanceDistribution, ProbabilityOneIsDegenerate) {
  EXPECT_EQ(binomialDistribution(8, 1).Lo, 8u);
  EXPECT_EQ(geometricDistribution(1, 1e-6).Lo, 1u);
  EXPECT_EQ(negativeBinomialDistribution(3, 1, 1e-6).Lo, 0u);
  WorkDistribution W = geometricDistribution(1, 1e-6);
  EXPECT_EQ(W.Mass.size(), 1u);
  std::mt19937 G;
  EXPECT_EQ(W.MakeSampler()(G), 1u);
}

TEST(ImbalanceDistribution, SamplersFollowTheConventions) {
  std::mt19937 G(1);
  for (const char *Spec : {"geometric:0.5", "uniform:3,5"}) {
    WorkDistribution W = parseDistribution(Spec, 1e-6);
    Sampler Draw = W.MakeSampler();
    uint64_t Min = UINT64_MAX;
    for (int I = 0; I < 1000; ++I)
      Min = std::min(Min, Draw(G));
    EXPECT_EQ(Min, W.Lo) << Spec;
  }
}

TEST(ImbalanceDistribution, SpecsNameEveryDistribution) {
  EXPECT_EQ(parseDistribution("binomial:40,0.5", 1e-6).Description, "binomial(n=40, p=0.5)");
  EXPECT_EQ(parseDistribution("geometric:0.05", 1e-6).Description, "geometric(p=0.05)");
  EXPECT_EQ(parseDistribution("poisson:30", 1e-6).Description, "poisson(lambda=30)");
  EXPECT_EQ(parseDistribution("uniform:20,40", 1e-6).Description, "uniform(a=20, b=40)");
  EXPECT_EQ(parseDistribution("negbinomial:5,0.3", 1e-6).Description, "negbinomial(r=5, p=0.3)");
}

TEST(ImbalanceDistribution, BadParametersSayWhat) {
  auto Bad = [](const std::string &Spec, double Epsilon = 1e-6) {
    return errorOf([&] { parseDistribution(Spec, Epsilon); });
  };
  EXPECT_EQ(Bad("geometric:0"), "geometric: p must be in (0, 1], got 0");
  EXPECT_EQ(Bad("geometric:1.5"), "geometric: p must be in (0, 1], got 1.5");
  EXPECT_EQ(Bad("geometric:-0.1"), "geometric: p must be in (0, 1], got -0.1");
  EXPECT_EQ(Bad("binomial:40,0"), "binomial: p must be in (0, 1], got 0");
  EXPECT_EQ(Bad("binomial:2.5,0.5"),
            "binomial: n must be a positive integer below 1048576, got 2.5");
  EXPECT_EQ(Bad("binomial:0,0.5"), "binomial: n must be a positive integer below 1048576, got 0");
  EXPECT_EQ(Bad("negbinomial:5,1.01"), "negbinomial: p must be in (0, 1], got 1.01");
  EXPECT_EQ(Bad("negbinomial:0,0.3"), "negbinomial: r must be positive and finite, got 0");
  EXPECT_EQ(Bad("poisson:0"), "poisson: lambda must be positive and finite, got 0");
  EXPECT_EQ(Bad("poisson:-3"), "poisson: lambda must be positive and finite, got -3");
  EXPECT_EQ(Bad("uniform:5,3"), "uniform: b must be >= a, got a=5, b=3");
  EXPECT_EQ(Bad("uniform:-1,3"), "uniform: a must be a non-negative integer below 1048576, got -1");
  EXPECT_EQ(Bad("uniform:1,2.5"),
            "uniform: b must be a non-negative integer below 1048576, got 2.5");
}

TEST(ImbalanceDistribution, BadSyntaxSaysWhat) {
  auto Bad = [](const std::string &Spec) {
    return errorOf([&] { parseDistribution(Spec, 1e-6); });
  };
  EXPECT_EQ(Bad("zipf:2"), "unknown distribution 'zipf' (expected binomial:N,P, geometric:P, "
                           "poisson:LAMBDA, uniform:A,B, negbinomial:R,P or empirical:FILE)");
  EXPECT_EQ(Bad("geometric"),
            "distribution 'geometric' has no parameters (expected binomial:N,P, geometric:P, "
            "poisson:LAMBDA, uniform:A,B, negbinomial:R,P or empirical:FILE)");
  EXPECT_EQ(Bad("geometric:0.1,0.2"), "geometric takes 1 parameter (geometric:P), got 2");
  EXPECT_EQ(Bad("binomial:40"), "binomial takes 2 parameters (binomial:N,P), got 1");
  EXPECT_EQ(Bad("poisson:abc"), "poisson: 'abc' is not a number (expected poisson:LAMBDA)");
  EXPECT_EQ(Bad("uniform:1,"), "uniform: '' is not a number (expected uniform:A,B)");
  EXPECT_EQ(Bad("poisson:inf"), "poisson: 'inf' is not a number (expected poisson:LAMBDA)");
  EXPECT_EQ(Bad("empirical:"), "empirical: no file named (expected empirical:FILE)");
}

TEST(ImbalanceDistribution, EpsilonIsChecked) {
  EXPECT_EQ(errorOf([] { parseDistribution("uniform:1,2", 0); }),
            "epsilon must be in [1e-12, 1), got 0");
  EXPECT_EQ(errorOf([] { parseDistribution("geometric:0.5", 1e-15); }),
            "epsilon must be in [1e-12, 1), got 1e-15");
  EXPECT_EQ(errorOf([] { parseDistribution("geometric:0.5", 1); }),
            "epsilon must be in [1e-12, 1), got 1");
}

TEST(ImbalanceDistribution, SupportsTooWideAreRefused) {
  EXPECT_EQ(errorOf([] { geometricDistribution(1e-7, 1e-6); }),
            "geometric(p=1e-07): more than 1048576 values before the tail drops below epsilon");
}

} // namespace
} // namespace divopt::imbalance
