// The simulator: reproducible from its seed whatever the thread count,
// the zero-sum convention, and histograms in the model's bins.
#include "imbalance/DistributionSpec.h"
#include "imbalance/ImbalanceModel.h"
#include "imbalance/MonteCarlo.h"

#include <gtest/gtest.h>

#include <numeric>
#include <stdexcept>

namespace divopt::imbalance {
namespace {

TEST(ImbalanceMonteCarlo, SameSeedSameResultOnAnyThreadCount) {
  WorkDistribution W = parseDistribution("geometric:0.1", 1e-6);
  Bins B{1, 4, 30};
  // Three chunks, the last one partial.
  uint64_t Groups = 2 * SimulationChunkGroups + 123;
  SimulationResult One = simulateImbalance(W, 8, Groups, 42, &B, 1);
  SimulationResult Two = simulateImbalance(W, 8, Groups, 42, &B, 2);
  SimulationResult Five = simulateImbalance(W, 8, Groups, 42, &B, 5);
  EXPECT_EQ(One.Groups, Groups);
  EXPECT_EQ(One.Mean, Two.Mean);
  EXPECT_EQ(One.Mean, Five.Mean);
  EXPECT_EQ(One.Variance, Five.Variance);
  EXPECT_EQ(One.Histogram, Five.Histogram);
  EXPECT_NE(One.Mean, simulateImbalance(W, 8, Groups, 43, &B, 1).Mean);
}

TEST(ImbalanceMonteCarlo, AllZeroGroupsCountAsNoLoss) {
  // binomial(1, 1/2), n = 2: a quarter of the groups are {0,0}; the mean
  // loss is 1.5 as in the model.
  WorkDistribution W = parseDistribution("binomial:1,0.5", 1e-6);
  SimulationResult S = simulateImbalance(W, 2, 400000, 1);
  EXPECT_NEAR(double(S.ZeroSumGroups) / double(S.Groups), 0.25, 0.005);
  EXPECT_NEAR(S.Mean, 1.5, 5 * S.standardError());
}

TEST(ImbalanceMonteCarlo, HistogramFollowsTheModelsBins) {
  WorkDistribution W = parseDistribution("uniform:1,3", 1e-6);
  LossDistribution L = modelImbalance(W, 4);
  Bins B = binsFor(L, 20);
  SimulationResult S = simulateImbalance(W, 4, 200000, 9, &B);
  std::vector<double> Model = binPmf(L, B);
  uint64_t Counted = std::accumulate(S.Histogram.begin(), S.Histogram.end(), uint64_t(0));
  EXPECT_LE(Counted, S.Groups);
  for (size_t I = 0; I < Model.size(); ++I)
    EXPECT_NEAR(double(S.Histogram[I]) / double(S.Groups), Model[I], 0.005) << "bin " << I;
}

TEST(ImbalanceMonteCarlo, RefusesEmptyWork) {
  WorkDistribution W = parseDistribution("uniform:1,3", 1e-6);
  EXPECT_THROW(simulateImbalance(W, 0, 10, 1), std::invalid_argument);
  EXPECT_THROW(simulateImbalance(W, 4, 0, 1), std::invalid_argument);
}

} // namespace
} // namespace divopt::imbalance
