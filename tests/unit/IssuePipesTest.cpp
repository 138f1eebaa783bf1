// The throughput side of the model's inputs (latency/IssuePipes.h): which
// pipe a latency-table key issues to, the table's issue intervals, and a
// block's pipe cycles.
#include "latency/IssuePipes.h"

#include <gtest/gtest.h>

namespace divopt {
namespace {

TEST(IssuePipes, KeysGoToThePipeTheirTypeAndOperationSay) {
  EXPECT_EQ(pipeOf("fma.f32"), Pipe::Fp32);
  EXPECT_EQ(pipeOf("add.rn.f"), Pipe::Fp32);
  EXPECT_EQ(pipeOf("fma.f16"), Pipe::Fp32);
  EXPECT_EQ(pipeOf("setp.f32"), Pipe::Fp32);
  EXPECT_EQ(pipeOf("fma.f64"), Pipe::Fp64);
  EXPECT_EQ(pipeOf("add.rn.d"), Pipe::Fp64);
  EXPECT_EQ(pipeOf("sqrt.f64"), Pipe::Fp64);
  EXPECT_EQ(pipeOf("cvt.f64.s32"), Pipe::Fp64);
  EXPECT_EQ(pipeOf("mad.s32"), Pipe::Imad);
  EXPECT_EQ(pipeOf("mul24.u32"), Pipe::Imad);
  EXPECT_EQ(pipeOf("div.s32"), Pipe::Imad);
  EXPECT_EQ(pipeOf("rem.u32"), Pipe::Imad);
  EXPECT_EQ(pipeOf("add.s32"), Pipe::Alu);
  EXPECT_EQ(pipeOf("setp.u16"), Pipe::Alu);
  EXPECT_EQ(pipeOf("and.pred"), Pipe::Alu);
  EXPECT_EQ(pipeOf("cvt.s32.u16"), Pipe::Alu);
  EXPECT_EQ(pipeOf("ex2.approx.f32"), Pipe::Mufu);
  EXPECT_EQ(pipeOf("div.f32"), Pipe::Mufu);
  EXPECT_EQ(pipeOf("cvt.f32.s32"), Pipe::Mufu);
  EXPECT_EQ(pipeOf("ld.global"), Pipe::Lsu);
  EXPECT_EQ(pipeOf("st.shared"), Pipe::Lsu);
  EXPECT_EQ(pipeOf("atom.global"), Pipe::Lsu);
  EXPECT_EQ(pipeOf("shfl.sync.idx.i32"), Pipe::Lsu);
  EXPECT_EQ(pipeOf("ld.const"), std::nullopt);
  EXPECT_EQ(pipeOf("bra"), std::nullopt);
  EXPECT_EQ(pipeOf("barrier.cta.sync.aligned.all"), std::nullopt);
  EXPECT_EQ(pipeOf("call.sinf"), std::nullopt);
}

LatencyTable tableWithIssueEntries() {
  LatencyTable T;
  for (auto [Key, Cycles] : {std::pair{"issue.fp32", 0.25}, {"issue.fp64", 0.5},
                             {"issue.lsu", 1.0}, {"issue.ldg", 1.25},
                             {"issue.ldg.scattered", 32.0}, {"fma.f32", 4.0}})
    T.Entries[Key] = {Cycles, std::nullopt};
  return T;
}

TEST(IssuePipes, RatesComeFromTheTablesIssueEntries) {
  PipeRates R = pipeRates(tableWithIssueEntries());
  EXPECT_TRUE(R.any());
  EXPECT_DOUBLE_EQ(R.Cycles[size_t(Pipe::Fp32)], 0.25);
  EXPECT_DOUBLE_EQ(R.Cycles[size_t(Pipe::Fp64)], 0.5);
  EXPECT_DOUBLE_EQ(R.Cycles[size_t(Pipe::Mufu)], 0); // not measured: no limit
  EXPECT_DOUBLE_EQ(R.GlobalRequest, 1.25);
  EXPECT_DOUBLE_EQ(R.PerLine, 1.0);
  EXPECT_FALSE(pipeRates(LatencyTable{}).any());
}

TEST(IssuePipes, DramPricesSplitIntoBurstsAndKibs) {
  // 32 scattered sectors (32 bursts in 32 KiBs) 192 cycles, 32 sectors in
  // one KiB (16 bursts) 66: a burst 4, a KiB 2.
  LatencyTable T = tableWithIssueEntries();
  T.Provenance.L2Bytes = 1 << 20;
  T.Entries["issue.ldg.dram.scattered"] = {192.0, std::nullopt};
  PipeRates Scattered = pipeRates(T);
  EXPECT_DOUBLE_EQ(Scattered.PerDramSector, 6); // every sector as scattered
  EXPECT_DOUBLE_EQ(Scattered.PerDramBurst, 0);
  T.Entries["issue.ldg.dram.runs"] = {66.0, std::nullopt};
  PipeRates Both = pipeRates(T);
  EXPECT_DOUBLE_EQ(Both.PerDramSector, 0);
  EXPECT_DOUBLE_EQ(Both.PerDramBurst, 4);
  EXPECT_DOUBLE_EQ(Both.PerDramKib, 2);
  EXPECT_EQ(Both.L2Sectors, (1u << 20) / 32);
  // Runs that cost more than half the scattered loads leave no price to a
  // KiB: every sector as scattered.
  T.Entries["issue.ldg.dram.runs"] = {100.0, std::nullopt};
  EXPECT_DOUBLE_EQ(pipeRates(T).PerDramSector, 6);
}

TEST(IssuePipes, ABlocksPipeCyclesSumItsMix) {
  PipeRates R = pipeRates(tableWithIssueEntries());
  PipeCycles C = pipeCycles({{"fma.f32", 8}, {"fma.f64", 2}, {"ld.global", 2},
                             {"ld.shared", 3}, {"bra", 1}},
                            R);
  EXPECT_DOUBLE_EQ(C[size_t(Pipe::Fp32)], 2.0);
  EXPECT_DOUBLE_EQ(C[size_t(Pipe::Fp64)], 1.0);
  // Global requests at issue.ldg, shared ones at issue.lsu.
  EXPECT_DOUBLE_EQ(C[size_t(Pipe::Lsu)], 2 * 1.25 + 3 * 1.0);
  EXPECT_DOUBLE_EQ(C[size_t(Pipe::Alu)], 0);
}

// A key ptxas expands takes issue.<key> x 4 slots; every other key one.
TEST(IssuePipes, SequencesTakeTheSlotsTheirIssueEntrySays) {
  LatencyTable T = tableWithIssueEntries();
  T.Entries["issue.rem.u32"] = {5.0, std::nullopt};
  EXPECT_DOUBLE_EQ(issueSlots({{"rem.u32", 2}, {"add.s32", 3}, {"bra", 1}}, T), 2 * 20 + 3 + 1);
  EXPECT_DOUBLE_EQ(issueSlots({{"div.u32", 2}}, T), 2); // not measured: one slot
  KernelNote K;
  K.Blocks.resize(2);
  K.Blocks[0].Mix = {{"rem.u32", 1}};
  EXPECT_EQ(issueSlotsPerBlock(K, T), (std::vector<double>{20, 0}));
}

} // namespace
} // namespace divopt
