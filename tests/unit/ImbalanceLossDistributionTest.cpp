// The pmf over rationals: reduction, merging of equal values, moments,
// quantiles, and the bins plots and histograms share.
#include "imbalance/Histogram.h"
#include "imbalance/LossDistribution.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace divopt::imbalance {
namespace {

TEST(ImbalanceLossDistribution, EqualFractionsMergeInValueOrder) {
  // 6/4 and 3/2 are one outcome; 4/2 and 2/1 another; inputs out of order.
  LossDistribution L(4, {{4, 2, 0.25}, {6, 4, 0.125}, {1, 1, 0.25}, {3, 2, 0.125}, {2, 1, 0.25}},
                     0.0);
  ASSERT_EQ(L.outcomes().size(), 3u);
  EXPECT_EQ(L.outcomes()[0].Num, 1u);
  EXPECT_EQ(L.outcomes()[1].Num, 3u);
  EXPECT_EQ(L.outcomes()[1].Den, 2u);
  EXPECT_DOUBLE_EQ(L.outcomes()[1].P, 0.25);
  EXPECT_EQ(L.outcomes()[2].Num, 2u);
  EXPECT_EQ(L.outcomes()[2].Den, 1u);
  EXPECT_DOUBLE_EQ(L.outcomes()[2].P, 0.5);
  EXPECT_DOUBLE_EQ(L.totalMass(), 1.0);
  EXPECT_DOUBLE_EQ(L.mean(), 1.625);
  EXPECT_DOUBLE_EQ(L.variance(), 0.25 * 0.625 * 0.625 + 0.25 * 0.125 * 0.125 + 0.5 * 0.375 * 0.375);
}

TEST(ImbalanceLossDistribution, CloseFractionsStayApart) {
  // Differ by 1 / (4294967291 * 4294967279), far below a double's resolution.
  LossDistribution L(1, {{4294967290u, 4294967291u, 0.5}, {4294967278u, 4294967279u, 0.5}}, 0);
  ASSERT_EQ(L.outcomes().size(), 2u);
  EXPECT_EQ(L.outcomes()[0].Den, 4294967279u); // the smaller value first
}

TEST(ImbalanceLossDistribution, QuantilesAreOutcomes) {
  LossDistribution L(2, {{1, 1, 0.5}, {4, 3, 0.25}, {2, 1, 0.25}}, 0.0);
  EXPECT_DOUBLE_EQ(L.quantile(0.1), 1.0);
  EXPECT_DOUBLE_EQ(L.quantile(0.5), 1.0);
  EXPECT_DOUBLE_EQ(L.quantile(0.6), 4.0 / 3);
  EXPECT_DOUBLE_EQ(L.quantile(0.99), 2.0);
  EXPECT_DOUBLE_EQ(L.quantile(1.0), 2.0);
  EXPECT_THROW(L.quantile(0), std::invalid_argument);
  EXPECT_THROW(L.quantile(1.5), std::invalid_argument);
}

TEST(ImbalanceLossDistribution, ZeroProbabilityOutcomesAreDropped) {
  LossDistribution L(2, {{1, 1, 1.0}, {2, 1, 0.0}}, 0.25);
  EXPECT_EQ(L.outcomes().size(), 1u);
  EXPECT_DOUBLE_EQ(L.zeroSumMass(), 0.25);
  EXPECT_THROW(LossDistribution(2, {{2, 1, 0.0}}, 0), std::invalid_argument);
}

TEST(ImbalanceHistogram, BinsCoverOneToTheTail) {
  LossDistribution L(2, {{1, 1, 0.5}, {3, 2, 0.25}, {2, 1, 0.25}}, 0.0);
  Bins B = binsFor(L, 4);
  EXPECT_DOUBLE_EQ(B.Lo, 1.0);
  EXPECT_DOUBLE_EQ(B.Hi, 2.0);
  EXPECT_EQ(B.index(1.0), 0u);
  EXPECT_EQ(B.index(1.5), 2u);
  EXPECT_EQ(B.index(2.0), 3u); // the upper edge belongs to the last bin
  EXPECT_FALSE(B.index(2.5));
  EXPECT_FALSE(B.index(0.5));
  std::vector<double> P = binPmf(L, B);
  EXPECT_EQ(P, (std::vector<double>{0.5, 0.0, 0.25, 0.25}));
  // No spread: still a visible range.
  EXPECT_DOUBLE_EQ(binsFor(LossDistribution(4, {{1, 1, 1.0}}, 0)).Hi, 1.1);
}

} // namespace
} // namespace divopt::imbalance
