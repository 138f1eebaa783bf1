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

TEST(SmPipesMetric, APipeCapsTheRateAsTheIssueLimitDoes) {
  // Eight warps of 5 executions of an 8-cycle block of 8 instructions: the
  // issue limit alone makes them 80 cycles (above). If each execution also
  // takes 4 cycles of the FP64 pipe, 8 warps ask 8 x 4 / 8 = 4 pipe cycles a
  // cycle of one pipe: a quarter of the speed, 160.
  OneBlockLaunch L(std::vector<uint32_t>(256, 5), 8, 8, 256, {1, 1});
  PipeCycles Fp64{};
  Fp64[size_t(Pipe::Fp64)] = 4;
  L.In.Pipes = {Fp64};
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(L.In, nullptr), 160);
  // One warp alone asks 0.5 of the pipe: its latency still decides.
  OneBlockLaunch One(std::vector<uint32_t>(32, 5), 8, 8, 32, {1, 1});
  One.In.Pipes = {Fp64};
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(One.In, nullptr), 40);
}

// Prices memory lines at 1 cycle each for the block's Direct accesses that
// follow the thread id and its Indirect ones, no pipe limits.
void priceLines(SmSharedInputs &In, unsigned Direct, unsigned Indirect) {
  In.Pipes = {PipeCycles{}};
  if (Direct)
    In.TidAccesses = {Direct};
  if (Indirect)
    In.TidIndirectAccesses = {Indirect};
  In.PerLine = 1;
}

// Threads 0, 32, 64... in warp 0, 1, 33, 65... in warp 1: every warp's 32
// threads on 32 different lines.
std::vector<uint32_t> laneMajor1024() {
  std::vector<uint32_t> D(1024);
  for (uint32_t P = 0; P < 1024; ++P)
    D[P] = (P % 32) * 32 + P / 32;
  return D;
}

TEST(SmPipesMetric, ScatteredThreadIdsCostLines) {
  // One warp, one block of 10 cycles run once, with 2 accesses that follow
  // the thread id. As written the warp's 32 threads share a line; D gives
  // it threads 0, 32, 64...: 32 lines, 31 more at 1 cycle each for each of
  // the 2 accesses, on the warp's latency: 10 + 62.
  OneBlockLaunch L(std::vector<uint32_t>(1024, 1), 10, 1, 32, {1, 32});
  priceLines(L.In, 2, 0);
  std::vector<uint32_t> D = laneMajor1024();
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(L.In, nullptr), 10);
  // 32 warps at once: each asks 62 / 72 of the load/store pipe, so they
  // share it: 32 x 62 cycles of it in all.
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(L.In, D.data()), 32 * 62);
  // Without the line price the layout costs nothing more.
  L.In.PerLine = 0;
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(L.In, D.data()), 10);
}

TEST(SmPipesMetric, AnAccessWhoseLanesAreALineApartCostsNoMoreScattered) {
  // The access of ScatteredThreadIdsCostLines, but each thread reads its own
  // 1024-float record (a step of 4096 bytes): as written its 32 lanes are
  // on 32 lines already, 31 more than the first for each of the 2 accesses:
  // 10 + 62 on one warp; D adds nothing.
  OneBlockLaunch L(std::vector<uint32_t>(1024, 1), 10, 1, 32, {1, 32});
  priceLines(L.In, 2, 0);
  L.In.TidAccessSteps = {{4096, 4096}};
  std::vector<uint32_t> D = laneMajor1024();
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(L.In, nullptr), 32 * 62);
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(L.In, D.data()), 32 * 62);
  // Doubles (8 bytes a lane): a warp as written spans 2 lines, one more a
  // warp for each access, 2 cycles of the pipe each warp shares.
  L.In.TidAccessSteps = {{8, 8}};
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(L.In, nullptr), 32 * 2);
}

TEST(SmPipesMetric, IndirectAccessesTouchTheLinesOfTheThreadsSegments) {
  // One warp runs a block of 10 cycles with one access through a loaded
  // index (edges[rowStart[t] + k]). Segments of one element: the warp's 32
  // threads read 32 neighbouring elements, one line.
  OneBlockLaunch Short(std::vector<uint32_t>(32, 1), 10, 1, 32, {1, 1});
  priceLines(Short.In, 0, 1);
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(Short.In, nullptr), 10);
  // Segments of 32 elements: each thread's on a line of its own, 31 lines
  // more in each of 32 executions: 32 x 10 + 32 x 31.
  OneBlockLaunch Long(std::vector<uint32_t>(32, 32), 10, 1, 32, {1, 1});
  priceLines(Long.In, 0, 1);
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(Long.In, nullptr), 320 + 992);
  // Short segments of threads 0, 32, 64...: 32 lines once regrouped so.
  OneBlockLaunch Spread(std::vector<uint32_t>(1024, 1), 10, 1, 32, {1, 1});
  priceLines(Spread.In, 0, 1);
  std::vector<uint32_t> D = laneMajor1024();
  // One slot: the 32 one-warp blocks run one after another, 41 cycles each.
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(Spread.In, nullptr), 32 * 10);
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(Spread.In, D.data()), 32 * 41);
}

TEST(SmPipesMetric, SectorsFromL2ShareTheSmsBandwidth) {
  // 32 warps of one 200-cycle block run once, with one access that follows
  // the thread id, sectors at 1 cycle of the SM's share of L2, lines free.
  // As written a warp's 32 threads read 4 sectors: 32 x 4 / 200 of the
  // bandwidth, under its limit: 200 cycles.
  OneBlockLaunch L(std::vector<uint32_t>(1024, 1), 200, 1, 1024, {1, 1});
  priceLines(L.In, 1, 0);
  L.In.PerLine = 0;
  L.In.PerSector = 1;
  EXPECT_NEAR(bbvWeightedSmShared(L.In, nullptr), 200, 1e-9);
  // Threads 0, 32, 64... in a warp: 32 sectors each, 1024 in all at one a
  // cycle.
  std::vector<uint32_t> D = laneMajor1024();
  EXPECT_NEAR(bbvWeightedSmShared(L.In, D.data()), 1024, 1e-9);
  // Segments (edges[rowStart[t] + k]) of 16 elements, run 16 times: as
  // written the warp's 32 segments follow each other, 512 elements on 64
  // sectors, which it reads once, the L1 keeping each for the next
  // element; one warp, under the limit either way.
  OneBlockLaunch Rows(std::vector<uint32_t>(32, 16), 10, 1, 32, {1, 1});
  priceLines(Rows.In, 0, 1);
  Rows.In.PerLine = 0;
  Rows.In.PerSector = 1;
  EXPECT_NEAR(bbvWeightedSmShared(Rows.In, nullptr), 160, 1e-9);
  Rows.In.PerSector = 8; // 64 x 8 cycles of bandwidth for 160 of latency
  EXPECT_NEAR(bbvWeightedSmShared(Rows.In, nullptr), 512, 1e-9);
}

TEST(SmPipesMetric, AnUnrolledLoopsLoadsWalkOneRow) {
  // 32 warps of one 200-cycle block run once, each thread reading four
  // 4-byte elements of its row (edges[rowStart[t] + k], a loop unrolled by
  // four), sectors at 1 cycle of the SM's share of L2, lines free. Thread
  // t's row is 16 bytes at t x 16: as written a warp's rows are 512
  // contiguous bytes, 16 sectors, 512 for the launch.
  OneBlockLaunch L(std::vector<uint32_t>(1024, 1), 200, 1, 1024, {1, 1});
  priceLines(L.In, 0, 4);
  L.In.TidIndirectBytes = {{4, 4, 4, 4}};
  L.In.PerLine = 0;
  L.In.PerSector = 1;
  EXPECT_NEAR(bbvWeightedSmShared(L.In, nullptr), 512, 1e-9);
  // Threads 0, 32, 64... in a warp: each lane's row in a sector of its own,
  // one for its four loads, 1024 in all (4096 were each load a row).
  std::vector<uint32_t> D = laneMajor1024();
  EXPECT_NEAR(bbvWeightedSmShared(L.In, D.data()), 1024, 1e-9);
}

TEST(SmPipesMetric, SectorsFromDramWhereL2NoLongerHoldsThem) {
  // 32 warps of one 200-cycle block run once, one access that follows the
  // thread id, each sector from DRAM at 1 cycle of the SM's share, lines
  // and L2 free. As written a warp's threads share 4 sectors that no other
  // warp reads: 128 in all, 4 x 32 / 200 of the bandwidth: 200 cycles.
  OneBlockLaunch L(std::vector<uint32_t>(1024, 1), 200, 1, 1024, {1, 1});
  priceLines(L.In, 1, 0);
  L.In.PerLine = 0;
  L.In.PerDramSector = 1;
  L.In.L2Sectors = 16;
  EXPECT_NEAR(bbvWeightedSmShared(L.In, nullptr), 200, 1e-9);
  // Threads 0, 32, 64... in a warp: warps 0 to 7 read the same 32 sectors
  // (thread t's is t / 8). An L2 of 16 sectors has let each go before the
  // next warp asks: 1024 from DRAM at one a cycle.
  std::vector<uint32_t> D = laneMajor1024();
  EXPECT_NEAR(bbvWeightedSmShared(L.In, D.data()), 1024, 1e-9);
  // An L2 that holds the launch's 128: each comes from DRAM once.
  L.In.L2Sectors = 1024;
  EXPECT_NEAR(bbvWeightedSmShared(L.In, D.data()), 200, 1e-9);
}

TEST(SmPipesMetric, DramSectorsCostTheirBurstsAndKibs) {
  // 32 warps of one 200-cycle block run once, each thread reading its own
  // 32-byte element from DRAM (L2 holds the launch, lines free): 1024
  // sectors whichever order, 1 cycle of the SM's share for each 64-byte
  // burst a warp's lie in, 16 for each KiB. As written a warp's 32 sectors
  // are 16 bursts of one KiB, 32 cycles a warp: 1024 of DRAM for 200 of
  // latency.
  OneBlockLaunch L(std::vector<uint32_t>(1024, 1), 200, 1, 1024, {1, 1});
  priceLines(L.In, 1, 0);
  L.In.TidAccessSteps = {{32}};
  L.In.PerLine = 0;
  L.In.PerDramBurst = 1;
  L.In.PerDramKib = 16;
  L.In.L2Sectors = 4096;
  EXPECT_NEAR(bbvWeightedSmShared(L.In, nullptr), 1024, 1e-9);
  // Threads 0, 32, 64... in a warp: its sectors 32 apart, each a burst in
  // a KiB of its own: 32 x (32 + 32 x 16).
  std::vector<uint32_t> D = laneMajor1024();
  EXPECT_NEAR(bbvWeightedSmShared(L.In, D.data()), 32 * (32 + 32 * 16), 1e-9);
}

TEST(SmPipesMetric, AccessesIntoOneObjectShareTheirSectors) {
  // 32 warps of one 200-cycle block run once; each thread reads 4 floats of
  // its own 128-byte record, at offsets 0, 4, 8 and 12: one sector. Taken
  // as 4 objects, each access brings a sector a lane from L2: 4 x 32 a
  // warp, 4096 cycles at one a sector.
  OneBlockLaunch L(std::vector<uint32_t>(1024, 1), 200, 1, 1024, {1, 1});
  priceLines(L.In, 4, 0);
  L.In.TidAccessSteps = {{128, 128, 128, 128}};
  L.In.PerLine = 0;
  L.In.PerSector = 1;
  EXPECT_NEAR(bbvWeightedSmShared(L.In, nullptr), 4096, 1e-9);
  // Placed in one object, the four bring each lane's sector once: 1024.
  L.In.TidAccessPlaces = {{{0, 0, 4}, {0, 4, 4}, {0, 8, 4}, {0, 12, 4}}};
  EXPECT_NEAR(bbvWeightedSmShared(L.In, nullptr), 1024, 1e-9);
  // Two accesses of one offset (a load and a store of one element) each
  // move it: the record's sector comes twice, the other two ride along: 2048.
  L.In.TidAccessPlaces = {{{0, 0, 4}, {0, 0, 4}, {0, 8, 4}, {0, 12, 4}}};
  EXPECT_NEAR(bbvWeightedSmShared(L.In, nullptr), 2048, 1e-9);
  // DRAM: a warp's 32 sectors are 32 bursts in 4 KiBs, at 1 cycle a burst
  // and 16 a KiB. As 4 objects, each access's: 32 x 4 x (32 + 4 x 16);
  // in one, once: 32 x (32 + 64).
  L.In.TidAccessPlaces.clear();
  L.In.PerSector = 0;
  L.In.PerDramBurst = 1;
  L.In.PerDramKib = 16;
  L.In.L2Sectors = 1 << 16;
  EXPECT_NEAR(bbvWeightedSmShared(L.In, nullptr), 32 * 4 * 96, 1e-9);
  L.In.TidAccessPlaces = {{{0, 0, 4}, {0, 4, 4}, {0, 8, 4}, {0, 12, 4}}};
  EXPECT_NEAR(bbvWeightedSmShared(L.In, nullptr), 32 * 96, 1e-9);
}

TEST(SmPipesMetric, OnlyTheActiveLanesOfADivergentWarpTouchLines) {
  // One warp runs a 10-cycle block with one access into records of 4096
  // bytes (a line a lane). Lane 0 runs it 32 times, the others once: the
  // first execution touches 32 lines, the other 31 lane 0's alone, so 31
  // lines more than the first in all, not 31 in each of 32 executions.
  std::vector<uint32_t> C(32, 1);
  C[0] = 32;
  OneBlockLaunch L(C, 10, 1, 32, {1, 1});
  priceLines(L.In, 1, 0);
  L.In.TidAccessSteps = {{4096}};
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(L.In, nullptr), 320 + 31);
  // Every lane 32 times: 31 more lines in each execution.
  OneBlockLaunch Full(std::vector<uint32_t>(32, 32), 10, 1, 32, {1, 1});
  priceLines(Full.In, 1, 0);
  Full.In.TidAccessSteps = {{4096}};
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(Full.In, nullptr), 320 + 32 * 31);
  // Through a loaded index: lane 0's segment is 32 elements, a line; the
  // others' one-element segments share the next line. The first execution
  // touches 2 lines, the other 31 lane 0's alone: one line more in all.
  OneBlockLaunch Seg(C, 10, 1, 32, {1, 1});
  priceLines(Seg.In, 0, 1);
  EXPECT_DOUBLE_EQ(bbvWeightedSmShared(Seg.In, nullptr), 320 + 1);
}

TEST(SmPipesMetric, ALaneWalkingItsOwnRecordBringsTheBytesItReads) {
  // 32 warps of one 200-cycle block run 8 times, each thread reading a
  // 4-byte element of its own 128-byte record (placed: one object, its
  // bytes known), sectors at 1 cycle, lines free. The L1 keeps a lane's
  // sector for its next elements: 32 x 4 / 32 = 4 sectors a warp an
  // execution, 32 x 8 x 4 = 1024 in all, under the 1600 cycles of latency.
  OneBlockLaunch L(std::vector<uint32_t>(1024, 8), 200, 1, 1024, {1, 1});
  priceLines(L.In, 1, 0);
  L.In.TidAccessSteps = {{128}};
  L.In.PerLine = 0;
  L.In.PerSector = 1;
  L.In.TidAccessPlaces = {{{0, 0, 4}}};
  L.In.Latency = {20};
  // 8 x 20 = 160 cycles alone; the SM's 32 warps ask 1024 sectors.
  EXPECT_NEAR(bbvWeightedSmShared(L.In, nullptr), 1024, 1e-9);
  // Without places the bytes are not known: a sector a lane, 8192.
  L.In.TidAccessPlaces.clear();
  EXPECT_NEAR(bbvWeightedSmShared(L.In, nullptr), 8192, 1e-9);
}

TEST(SmPipesMetric, LocalMemoryBringsTheSectorsOfTheActiveLanes) {
  // One warp runs a 20-cycle block 8 times in lanes 0, 8, 16 and 24 (the
  // others not at all), with one 4-byte access into a local array. Frames
  // of 1 KiB, an L1 of 16 KiB: the warp's 32 frames do not fit, so each
  // execution's sectors come from L2, at 10 cycles each. Local memory
  // interleaves the lanes' words: the four active lanes' lie in four
  // sectors, 32 in all, 320 cycles of bandwidth for 160 of latency.
  std::vector<uint32_t> C(32, 0);
  for (unsigned Lane : {0, 8, 16, 24})
    C[Lane] = 8;
  OneBlockLaunch L(C, 20, 1, 32, {1, 1});
  L.In.LocalAccessBytes = {{4}};
  L.In.LocalBytes = 1024;
  L.In.L1Bytes = 16 * 1024;
  L.In.PerSector = 10;
  EXPECT_NEAR(bbvWeightedSmShared(L.In, nullptr), 320, 1e-9);
  // Regrouped so that the four busy threads run in lanes 0 to 3: their
  // words share a sector, 8 in all, under the latency.
  std::vector<uint32_t> D(32);
  std::iota(D.begin(), D.end(), 0);
  std::swap(D[1], D[8]);
  std::swap(D[2], D[16]);
  std::swap(D[3], D[24]);
  EXPECT_NEAR(bbvWeightedSmShared(L.In, D.data()), 160, 1e-9);
  // Frames that fit in L1 bring nothing.
  L.In.L1Bytes = 32 * 1024;
  EXPECT_NEAR(bbvWeightedSmShared(L.In, nullptr), 160, 1e-9);
  // Frames that outgrow L2 too (16 KiB) come from DRAM: as written the
  // four words lie in two 64-byte bursts, 16 in all at 20 cycles; lanes 0
  // to 3 in one, 8.
  L.In.L1Bytes = 16 * 1024;
  L.In.PerSector = 0;
  L.In.PerDramBurst = 20;
  L.In.L2Sectors = 512;
  EXPECT_NEAR(bbvWeightedSmShared(L.In, nullptr), 320, 1e-9);
  EXPECT_NEAR(bbvWeightedSmShared(L.In, D.data()), 160, 1e-9);
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
  Bad = L.In;
  Bad.Pipes = {PipeCycles{}, PipeCycles{}}; // two mixes for one block
  EXPECT_THROW(bbvWeightedSmShared(Bad, nullptr), std::invalid_argument);
  Bad = L.In;
  Bad.TidAccesses = {1, 1};
  EXPECT_THROW(bbvWeightedSmShared(Bad, nullptr), std::invalid_argument);
  Bad = L.In;
  Bad.TidIndirectAccesses = {1, 1};
  EXPECT_THROW(bbvWeightedSmShared(Bad, nullptr), std::invalid_argument);
}

} // namespace
} // namespace divopt
