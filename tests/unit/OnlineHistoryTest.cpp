// What a kernel's bound and judged shapes tell its later ones (KernelHistory,
// runtime/online/OnlineSlot.h), without a GPU: the facts come from the
// results the host read.
#include "online/OnlineSlot.h"
#include <gtest/gtest.h>

using namespace divopt::rt::online;

namespace {

DecisionResult boundResult(double LaunchMs, double Original, double BestCase) {
  DecisionResult R{};
  R.Stamps[CostStart] = 1000000;
  R.Stamps[CostEnd] = 1000000 + static_cast<unsigned long long>(LaunchMs * 1e6);
  R.EstimateOriginal = Original;
  R.BestCase = BestCase;
  return R;
}

} // namespace

TEST(KernelHistory, LaterShapesLearnTheTimePerThreadAndTheLargestGains) {
  KernelHistory H;
  EXPECT_EQ(H.nextOrdinal(), 0u);
  EXPECT_EQ(H.nextOrdinal(), 1u);
  EXPECT_FALSE(H.facts(false).Known); // no bound seen or on its way
  H.bound(boundResult(0.04, 6.0, 1.0), 200000);
  KernelHistory::Facts F = H.facts(false);
  EXPECT_TRUE(F.Known);
  EXPECT_NEAR(F.MsPerThread * 200000, 0.04, 1e-9);
  EXPECT_NEAR(F.Ceiling, 5.0 / 6.0, 1e-12);
  EXPECT_LT(F.Measured, 0); // no guard judged yet
  // A later bound with less room keeps the larger; its time is the latest.
  H.bound(boundResult(0.09, 2.0, 1.0), 300000);
  F = H.facts(false);
  EXPECT_NEAR(F.Ceiling, 5.0 / 6.0, 1e-12);
  EXPECT_NEAR(F.MsPerThread * 300000, 0.09, 1e-9);
  // Trials: the largest share a kept layout saved; a loss counts as none.
  H.judged(0.55);
  H.judged(-0.2);
  EXPECT_NEAR(H.facts(false).Measured, 0.55, 1e-12);
}

TEST(KernelHistory, AKernelWithNoBoundShapeLetsItsLaterShapesFallBack) {
  KernelHistory H;
  H.giveUp(); // its only bound-bearing shape was disabled
  KernelHistory::Facts F = H.facts(false);
  EXPECT_TRUE(F.Known);
  EXPECT_EQ(F.MsPerThread, 0.0); // no timing: decided when they come back
}
