// The arithmetic of divopt bench (tool/BenchStats.h): medians and spreads of
// kernel times, seed 002's improvement and the speedup averages.
#include "BenchStats.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace divopt::bench {
namespace {

TEST(BenchStats, QuantilesInterpolateBetweenOrderStatistics) {
  std::vector<double> V = {4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(quantile(V, 0), 1);
  EXPECT_DOUBLE_EQ(quantile(V, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(quantile(V, 1), 4);
  EXPECT_DOUBLE_EQ(quantile(V, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(quantile({7}, 0.9), 7);
  EXPECT_THROW(quantile({}, 0.5), std::invalid_argument);
  EXPECT_THROW(quantile(V, 1.5), std::invalid_argument);
}

TEST(BenchStats, SummaryOfKernelTimes) {
  // One launch spoiled by an interrupt moves neither the median nor the IQR much.
  TimeSummary S = summarizeTimes({1.0, 1.1, 0.9, 1.0, 9.0});
  EXPECT_EQ(S.Samples, 5u);
  EXPECT_DOUBLE_EQ(S.Median, 1.0);
  EXPECT_DOUBLE_EQ(S.Min, 0.9);
  EXPECT_DOUBLE_EQ(S.Max, 9.0);
  EXPECT_DOUBLE_EQ(S.Q1, 1.0);
  EXPECT_DOUBLE_EQ(S.Q3, 1.1);
  EXPECT_NEAR(S.iqr(), 0.1, 1e-12);
  EXPECT_THROW(summarizeTimes({}), std::invalid_argument);
  EXPECT_THROW(summarizeTimes({1.0, -2.0}), std::invalid_argument);
}

TEST(BenchStats, ImprovementIsTheShareOfTheBaselineRemoved) {
  EXPECT_DOUBLE_EQ(improvement(10, 4), 0.6);
  EXPECT_DOUBLE_EQ(improvement(10, 12.5), -0.25); // slower: negative
  EXPECT_THROW(improvement(0, 1), std::invalid_argument);
  EXPECT_DOUBLE_EQ(speedup(10, 4), 2.5);
  EXPECT_THROW(speedup(10, 0), std::invalid_argument);
}

TEST(BenchStats, Means) {
  EXPECT_DOUBLE_EQ(mean({1, 2, 6}), 3);
  EXPECT_NEAR(geometricMean({1, 4, 16}), 4, 1e-12);
  EXPECT_THROW(mean({}), std::invalid_argument);
  EXPECT_THROW(geometricMean({1, 0}), std::invalid_argument);
}

} // namespace
} // namespace divopt::bench
