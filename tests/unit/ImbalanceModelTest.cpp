// The exact model against brute force: for small supports and groups, every
// outcome of X = n max / sum and its probability, by enumerating all
// |supp W|^n groups. Then the zero-sum convention and the size limits.
#include "imbalance/ImbalanceModel.h"
#include "imbalance/DistributionSpec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace divopt::imbalance {
namespace {

using Fraction = std::pair<uint32_t, uint32_t>;

// P(X = num/den) by enumerating every group, all-zero groups as X = 1; in
// long double, so that the reference is the more accurate side.
std::map<Fraction, long double> bruteForce(const WorkDistribution &W, unsigned N) {
  std::map<Fraction, long double> Pmf;
  std::vector<size_t> Digits(N, 0);
  while (true) {
    long double P = 1;
    uint64_t Max = 0, Sum = 0;
    for (size_t D : Digits) {
      P *= W.Mass[D];
      Max = std::max<uint64_t>(Max, W.Lo + D);
      Sum += W.Lo + D;
    }
    uint64_t Num = Sum ? N * Max : 1, Den = Sum ? Sum : 1, G = std::gcd(Num, Den);
    if (P > 0)
      Pmf[{uint32_t(Num / G), uint32_t(Den / G)}] += P;
    size_t I = 0;
    while (I < N && ++Digits[I] == W.Mass.size())
      Digits[I++] = 0;
    if (I == N)
      return Pmf;
  }
}

void expectMatchesBruteForce(const std::string &Spec, unsigned N) {
  WorkDistribution W = parseDistribution(Spec, 1e-6);
  LossDistribution L = modelImbalance(W, N);
  std::map<Fraction, long double> Expected = bruteForce(W, N);
  ASSERT_EQ(L.outcomes().size(), Expected.size()) << Spec << " n=" << N;
  for (const LossOutcome &O : L.outcomes()) {
    auto It = Expected.find({O.Num, O.Den});
    ASSERT_NE(It, Expected.end()) << Spec << " n=" << N << ": " << O.Num << "/" << O.Den;
    EXPECT_NEAR(O.P, double(It->second), 1e-13 * double(It->second))
        << Spec << " n=" << N << ": " << O.Num << "/" << O.Den;
  }
  EXPECT_NEAR(L.totalMass(), 1.0, 1e-13);
}

TEST(ImbalanceModel, MatchesBruteForceOnSmallGroups) {
  for (unsigned N : {1u, 2u, 3u, 5u}) {
    expectMatchesBruteForce("uniform:1,4", N);
    expectMatchesBruteForce("uniform:0,3", N);
    expectMatchesBruteForce("binomial:5,0.3", N);
    expectMatchesBruteForce("geometric:0.6", N);
  }
  expectMatchesBruteForce("binomial:3,0.9", 8);
  expectMatchesBruteForce("uniform:100,102", 6);
}

TEST(ImbalanceModel, PaperFigureOneGroupsAreOutcomes) {
  // Seed 001 Fig. 1: w' = {4,3,4,5,4,5,3,4} loses 40/32 = 5/4. Any group of
  // 8 from uniform 3..5 with max 5 and sum 32 is that outcome.
  LossDistribution L = modelImbalance(parseDistribution("uniform:3,5", 1e-6), 8);
  bool Found = false;
  for (const LossOutcome &O : L.outcomes())
    Found |= O.Num == 5 && O.Den == 4;
  EXPECT_TRUE(Found);
}

TEST(ImbalanceModel, AllZeroGroupsCountAsNoLoss) {
  // binomial(1, 1/2), n = 2: {0,0} (1/4) is X = 1 by convention, {1,1}
  // (1/4) is X = 1, {0,1} and {1,0} (1/2) are X = 2 * 1 / 1 = 2.
  LossDistribution L = modelImbalance(parseDistribution("binomial:1,0.5", 1e-6), 2);
  ASSERT_EQ(L.outcomes().size(), 2u);
  EXPECT_EQ(L.outcomes()[0].Num, 1u);
  EXPECT_EQ(L.outcomes()[0].Den, 1u);
  EXPECT_DOUBLE_EQ(L.outcomes()[0].P, 0.5);
  EXPECT_EQ(L.outcomes()[1].Num, 2u);
  EXPECT_DOUBLE_EQ(L.outcomes()[1].P, 0.5);
  EXPECT_DOUBLE_EQ(L.zeroSumMass(), 0.25);
  EXPECT_DOUBLE_EQ(L.mean(), 1.5);
  // No zero in the support, no zero-sum mass.
  EXPECT_EQ(modelImbalance(parseDistribution("geometric:0.5", 1e-6), 4).zeroSumMass(), 0.0);
}

TEST(ImbalanceModel, OneThreadNeverLoses) {
  LossDistribution L = modelImbalance(parseDistribution("poisson:3", 1e-6), 1);
  ASSERT_EQ(L.outcomes().size(), 1u);
  EXPECT_EQ(L.outcomes()[0].Num, 1u);
  EXPECT_EQ(L.outcomes()[0].Den, 1u);
  EXPECT_NEAR(L.mean(), 1.0, 1e-14);
}

TEST(ImbalanceModel, ConstantWorkNeverLoses) {
  LossDistribution L = modelImbalance(parseDistribution("uniform:7,7", 1e-6), 32);
  ASSERT_EQ(L.outcomes().size(), 1u);
  EXPECT_DOUBLE_EQ(L.mean(), 1.0);
}

TEST(ImbalanceModel, LargestGroupStaysFinite) {
  // C(1024, 512) is near 1e306: the coefficients must not overflow.
  LossDistribution L = modelImbalance(parseDistribution("binomial:1,0.5", 1e-6), 1024);
  EXPECT_NEAR(L.totalMass(), 1.0, 1e-12);
  // All-zero and all-one groups aside, X = 1024 / (number of ones).
  EXPECT_GT(L.mean(), 1.9);
  EXPECT_LT(L.mean(), 2.1);
}

TEST(ImbalanceModel, RefusesWhatItCannotDo) {
  WorkDistribution W = parseDistribution("uniform:1,4", 1e-6);
  EXPECT_THROW(modelImbalance(W, 0), std::invalid_argument);
  EXPECT_THROW(modelImbalance(W, MaxGroupSize + 1), std::invalid_argument);
  try {
    modelImbalance(parseDistribution("geometric:0.001", 1e-6), 32);
    FAIL() << "no error";
  } catch (const std::invalid_argument &E) {
    EXPECT_EQ(std::string(E.what()).rfind("the exact model for n=32 over 13809 values of "
                                          "geometric(p=0.001) needs about ",
                                          0),
              0u)
        << E.what();
  }
  EXPECT_THROW(modelImbalance(parseDistribution("uniform:200000000,200000001", 1e-6), 32),
               std::invalid_argument);
}

TEST(ImbalanceModel, CostEstimateFollowsTheDynamicProgram) {
  ModelCost Small = estimateModelCost(parseDistribution("uniform:1,10", 1e-6), 8);
  ModelCost Wider = estimateModelCost(parseDistribution("uniform:1,20", 1e-6), 8);
  ModelCost Larger = estimateModelCost(parseDistribution("uniform:1,10", 1e-6), 16);
  EXPECT_NEAR(Wider.MultiplyAdds / Small.MultiplyAdds, 4, 0.2);
  EXPECT_NEAR(Larger.MultiplyAdds / Small.MultiplyAdds, 8, 0.5);
  EXPECT_NEAR(Wider.Pairs / Small.Pairs, 4, 0.5);
}

} // namespace
} // namespace divopt::imbalance
