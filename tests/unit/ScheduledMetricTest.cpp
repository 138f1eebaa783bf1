// BBV-weighted-scheduled: dynamic round-robin thread block scheduling, as
// seed 002 Figs. 4 and 5 draw it (occupancy 1, so one slot per SM).
#include "model/ScheduledMetric.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace divopt {
namespace {

// Fig. 4: two SMs; thread block 1 finishes before block 0, so block 2 goes
// to SM1 (a static round-robin would have put it on SM0).
TEST(ScheduledMetric, Fig4DynamicRoundRobin) {
  std::vector<BlockPlacement> P = scheduleThreadBlocks({4, 2, 3, 1}, 2);
  ASSERT_EQ(P.size(), 4u);
  EXPECT_EQ(P[0].Slot, 0u);
  EXPECT_EQ(P[1].Slot, 1u);
  EXPECT_EQ(P[2].Slot, 1u);
  EXPECT_EQ(P[2].Start, 2);
  EXPECT_EQ(P[3].Slot, 0u); // SM0 frees at 4, SM1 at 5
  EXPECT_EQ(P[3].Start, 4);
  EXPECT_EQ(bbvWeightedScheduled({4, 2, 3, 1}, 2), 5);
}

// Fig. 5: three SMs. Q1 (unordered): tb3 takes SM1 when tb1 ends at t1,
// tb4 takes SM2 when tb2 ends at t2. Q2, the same blocks heaviest first,
// balances the SMs and finishes earlier.
TEST(ScheduledMetric, Fig5HeaviestFirstFinishesEarlier) {
  std::vector<double> Q1 = {5, 2, 3, 4, 6};
  std::vector<BlockPlacement> P = scheduleThreadBlocks(Q1, 3);
  EXPECT_EQ(P[3].Slot, 1u);
  EXPECT_EQ(P[3].Start, 2); // t1
  EXPECT_EQ(P[4].Slot, 2u);
  EXPECT_EQ(P[4].Start, 3); // t2
  EXPECT_EQ(bbvWeightedScheduled(Q1, 3), 9);
  EXPECT_EQ(bbvWeightedScheduled({6, 5, 4, 3, 2}, 3), 7);
}

TEST(ScheduledMetric, TiesGoToTheLowestSlot) {
  std::vector<BlockPlacement> P = scheduleThreadBlocks({1, 1, 1, 1, 1}, 3);
  EXPECT_EQ(P[3].Slot, 0u);
  EXPECT_EQ(P[4].Slot, 1u);
}

// Occupancy 2 on 2 SMs: four slots run four blocks at once.
TEST(ScheduledMetric, SlotsAreSmsTimesOccupancy) {
  EXPECT_EQ(bbvWeightedScheduled({3, 3, 3, 3}, 4), 3);
  EXPECT_EQ(bbvWeightedScheduled({3, 3, 3, 3}, 2), 6);
  EXPECT_EQ(bbvWeightedScheduled({}, 2), 0);
  EXPECT_THROW(scheduleThreadBlocks({1}, 0), std::invalid_argument);
}

} // namespace
} // namespace divopt
