// BBV-weighted-SM-shared (model/SmSharedMetric.h): warps of one SM advance
// together, at their latency when the SM can issue for all of them, slower
// when it cannot; blocks queue for slots in launch order.
#include "model/SmSharedMetric.h"

#include <gtest/gtest.h>

#include <numeric>
#include <stdexcept>

namespace divopt {
namespace {

// One basic block: thread t runs it Counts[t] times.
struct OneBlockLaunch {
  std::vector<uint32_t> Counts;
  BbvClasses Bbv;
  SmSharedInputs In;

  OneBlockLaunch(std::vector<uint32_t> C, double Latency, double Instructions, uint32_t BlockSize,
                 Machine Gpu)
      : Counts(std::move(C)) {
    Bbv = findClasses({Counts.data(), uint32_t(Counts.size()), 1}, 1);
    In.Bbv = &Bbv;
    In.Latency = {Latency};
    In.Instructions = {Instructions};
    In.BlockSize = BlockSize;
    In.Gpu = Gpu;
  }
};

TEST(SmSharedMetric, AWarpAloneRunsAtItsLatency) {
  // 32 threads, the busiest runs the block 7 times: 7 x 10 cycles.
  std::vector<uint32_t> C(32, 1);
  C[5] = 7;
  OneBlockLaunch L(C, 10, 2, 32, {1, 1});
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(L.In, nullptr), 70);
}

TEST(SmSharedMetric, WarpsShareTheSmsIssueRate) {
  // Two warps of one block, each 5 executions of a block of 8 instructions
  // that take 8 cycles alone: each alone needs 1 instruction per cycle.
  // Eight such warps want 8 > 4 a cycle, so they run at half speed.
  OneBlockLaunch Two(std::vector<uint32_t>(64, 5), 8, 8, 64, {1, 1});
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(Two.In, nullptr), 40);
  OneBlockLaunch Eight(std::vector<uint32_t>(256, 5), 8, 8, 256, {1, 1});
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(Eight.In, nullptr), 80);
}

TEST(SmSharedMetric, BlocksQueueForSlotsInLaunchOrder) {
  // One SM, one slot, three one-warp blocks of 5, 3 and 2 executions.
  std::vector<uint32_t> C(96, 0);
  std::fill(C.begin(), C.begin() + 32, 5);
  std::fill(C.begin() + 32, C.begin() + 64, 3);
  std::fill(C.begin() + 64, C.end(), 2);
  OneBlockLaunch Serial(C, 1, 0.01, 32, {1, 1});
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(Serial.In, nullptr), 10);
  // Two SMs: block 2 goes to SM 1 when block 1 ends at 3 and ends at 5.
  OneBlockLaunch Two(C, 1, 0.01, 32, {2, 1});
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(Two.In, nullptr), 5);
  // Three slots on one SM: all at once.
  OneBlockLaunch Resident(C, 1, 0.01, 32, {1, 3});
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(Resident.In, nullptr), 5);
}

TEST(SmSharedMetric, RegroupingChangesTheWarpsThroughD) {
  // Odd threads run 10 times, even ones once: every warp waits for 10.
  // Gathered (D puts odd threads first), two warps of 10 and two of 1 share
  // one slot of a 4-warp block; the issue limit is never reached.
  std::vector<uint32_t> C(128);
  for (uint32_t T = 0; T < 128; ++T)
    C[T] = T % 2 ? 10 : 1;
  OneBlockLaunch L(C, 1, 0.01, 128, {1, 1});
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(L.In, nullptr), 10);
  std::vector<uint32_t> D(128);
  for (uint32_t P = 0; P < 64; ++P) {
    D[P] = 2 * P + 1;
    D[64 + P] = 2 * P;
  }
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(L.In, D.data()), 10);
  // Issue-bound (1 instruction per cycle per warp): 4 warps of 10 need 4 a
  // cycle, the SM's limit; gathered, 2 heavy warps finish in 10, and the
  // light ones in 1 while 4 run.
  OneBlockLaunch Busy(C, 1, 1, 128, {1, 1});
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(Busy.In, nullptr), 10);
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(Busy.In, D.data()), 10);
}

TEST(SmSharedMetric, BlocksWithNoWorkTakeNoTime) {
  std::vector<uint32_t> C(96, 0);
  std::fill(C.begin() + 64, C.end(), 4);
  OneBlockLaunch L(C, 2, 1, 32, {1, 1});
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(L.In, nullptr), 8);
}

TEST(SmSharedMetric, BadInputsAreRefused) {
  OneBlockLaunch L(std::vector<uint32_t>(32, 1), 1, 1, 32, {1, 1});
  SmSharedInputs Bad = L.In;
  Bad.Instructions = {};
  EXPECT_THROW(bbvWeightedSmShared(Bad, nullptr), std::invalid_argument);
  Bad = L.In;
  Bad.Gpu.Occupancy = 0;
  EXPECT_THROW(bbvWeightedSmShared(Bad, nullptr), std::invalid_argument);
  Bad = L.In;
  Bad.BlockSize = 0;
  EXPECT_THROW(bbvWeightedSmShared(Bad, nullptr), std::invalid_argument);
}

} // namespace
} // namespace divopt
