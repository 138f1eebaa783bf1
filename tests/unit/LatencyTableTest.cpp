// Latency tables: the file format, its errors, the fallbacks for keys a
// table lacks, and pricing a block's instruction mix (seed 002 Listing 2).
#include "divopt/KernelNotes.h"
#include "latency/BlockPricing.h"
#include "latency/LatencyTable.h"
#include "latency/UnitLatencyTable.h"

#include <gtest/gtest.h>

#include <string>

namespace divopt {
namespace {

const std::string Gtx480 = DIVOPT_TEST_INPUTS "/gtx480-table3.json";

// A valid table with one entry, to break one field at a time.
std::string table(const std::string &Entries = R"("add.s32": {"median": 4, "spread": 0.5})",
                  const std::string &Provenance = R"("device": "H100", "compute_capability": 90,
      "driver": "580.1", "sm_clock_mhz": 1980, "date": "2026-11-22", "method": "bench")") {
  return R"({"format": "divopt-latency-table", "version": 1, "provenance": {)" + Provenance +
         R"(}, "entries": {)" + Entries + "}}";
}

std::string errorOf(const std::string &Json) {
  try {
    parseLatencyTable(Json, "t.json");
  } catch (const LatencyTableError &E) {
    return E.what();
  }
  return "no error";
}

TEST(LatencyTable, ReadsEntriesAndProvenance) {
  LatencyTable T = parseLatencyTable(table(), "t.json");
  EXPECT_EQ(T.Origin, "t.json");
  EXPECT_EQ(T.Provenance.Device, "H100");
  EXPECT_EQ(T.Provenance.ComputeCapability, 90u);
  EXPECT_EQ(T.Provenance.SmClockMHz, 1980);
  EXPECT_EQ(T.Entries.at("add.s32").Median, 4);
  EXPECT_EQ(*T.Entries.at("add.s32").Spread, 0.5);
  EXPECT_FALSE(T.Placeholder);
  EXPECT_FALSE(T.Default);
  EXPECT_EQ(T.Provenance.L2Bytes, 0u); // optional: a table need not say
  LatencyTable L2 = parseLatencyTable(table(R"("add.s32": {"median": 4})", R"("device": "H100",
      "compute_capability": 90, "driver": "580.1", "sm_clock_mhz": 1980, "date": "d",
      "method": "m", "l2_bytes": 52428800)"), "t.json");
  EXPECT_EQ(L2.Provenance.L2Bytes, 52428800u);
}

TEST(LatencyTable, ErrorsNameTheFileAndKey) {
  EXPECT_NE(errorOf("{").find("t.json: not valid JSON"), std::string::npos);
  EXPECT_EQ(errorOf(R"({"format": "other", "version": 1})"),
            "t.json: not a latency table (\"format\" must be \"divopt-latency-table\")");
  EXPECT_EQ(errorOf(R"({"format": "divopt-latency-table", "version": 2})"),
            "t.json: unsupported version (this divopt reads version 1)");
  EXPECT_EQ(errorOf(table(R"("add.s32": {"median": -1})")),
            "t.json: key 'add.s32': \"median\" must be a non-negative number");
  EXPECT_EQ(errorOf(table(R"("mul.f32": {"spread": 1})")),
            "t.json: key 'mul.f32' lacks \"median\"");
  EXPECT_EQ(errorOf(table(R"("mul.f32": {"median": 4, "spread": "wide"})")),
            "t.json: key 'mul.f32': \"spread\" must be a non-negative number");
  EXPECT_EQ(errorOf(table(R"("mul.f32": 4)")),
            "t.json: key 'mul.f32': an entry must be an object {\"median\": cycles, \"spread\": "
            "cycles}");
  EXPECT_EQ(errorOf(table("", R"("device": "H100", "compute_capability": 90)")),
            "t.json: provenance lacks \"driver\"");
  EXPECT_EQ(errorOf(table("", R"("device": "H100", "compute_capability": "9.0", "driver": "x",
      "sm_clock_mhz": 1, "date": "d", "method": "m")")),
            "t.json: provenance \"compute_capability\" must be an integer such as 90");
  EXPECT_EQ(errorOf(table("", R"("device": "H100", "compute_capability": 90, "driver": "x",
      "sm_clock_mhz": 1, "date": "d", "method": "m", "l2_bytes": -5)")),
            "t.json: provenance \"l2_bytes\" must be a whole number of bytes");
}

TEST(LatencyTable, MissingFileIsAnError) {
  EXPECT_THROW(readLatencyTable("/nonexistent/table.json"), LatencyTableError);
}

TEST(LatencyTable, UnknownKeysFallBackByFamilyThenUnit) {
  LatencyTable T = readLatencyTable(Gtx480);
  EXPECT_EQ(T.lookup("div.u32").Cycles, 264);
  EXPECT_EQ(T.lookup("div.u32").Source, PriceSource::Exact);
  // rem: 264 (u32) and 297 (s32); the median of two is their mean.
  KeyPrice Rem = T.lookup("rem.s64");
  EXPECT_EQ(Rem.Source, PriceSource::Family);
  EXPECT_EQ(Rem.Family, "rem");
  EXPECT_EQ(Rem.Cycles, (264 + 297) / 2.0);
  KeyPrice Ld = T.lookup("ld.global"); // ld.const 46, ld.shared 44, st.shared is "st"
  EXPECT_EQ(Ld.Source, PriceSource::Family);
  EXPECT_EQ(Ld.Cycles, 45);
  KeyPrice Asm = T.lookup("asm");
  EXPECT_EQ(Asm.Source, PriceSource::Unit);
  EXPECT_EQ(Asm.Cycles, 1);
}

TEST(LatencyTable, UnitTableSaysItIsAPlaceholder) {
  LatencyTable T = unitLatencyTable();
  EXPECT_TRUE(T.Placeholder);
  EXPECT_NE(T.Provenance.Method.find("placeholders, not measured"), std::string::npos);
  EXPECT_EQ(T.lookup("add.s32").Cycles, 1);
  EXPECT_EQ(T.lookup("add.s32").Source, PriceSource::Default);
  EXPECT_EQ(T.lookup("rem.u64").Cycles, 1);
  EXPECT_GT(T.lookup("ld.global").Cycles, T.lookup("ld.shared").Cycles);
  EXPECT_GT(T.lookup("ld.shared").Cycles, 1);
}

// Listing 2: mul.lo.s32, ld.const.u32, mul.lo.u32, rem.u32, div.u32 on the
// GTX480 cost 18 + 46 + 18 + 264 + 264 = 610 cycles. divopt keys both
// multiplies mul.s32 (signedness follows the operation, docs/latency-keys.md).
TEST(BlockPricing, Listing2Costs610Cycles) {
  LatencyTable T = readLatencyTable(Gtx480);
  std::vector<GuessedKey> Guessed;
  EXPECT_EQ(priceMix({{"mul.s32", 2}, {"ld.const", 1}, {"rem.u32", 1}, {"div.u32", 1}}, T,
                     Guessed),
            610);
  EXPECT_TRUE(Guessed.empty());
}

TEST(BlockPricing, PricesEveryBlockAndListsGuessesOnce) {
  LatencyTable T = readLatencyTable(Gtx480);
  KernelNote K;
  K.Blocks.resize(3);
  K.Blocks[0].Mix = {{"ld.global", 2}, {"add.s32", 1}};
  K.Blocks[1].Mix = {{"ld.global", 1}, {"asm", 3}};
  BlockLatencies L = priceBlocks(K, T);
  ASSERT_EQ(L.Cycles.size(), 3u);
  EXPECT_EQ(L.Cycles[0], 2 * 45 + 18);
  EXPECT_EQ(L.Cycles[1], 45 + 3);
  EXPECT_EQ(L.Cycles[2], 0);
  ASSERT_EQ(L.Guessed.size(), 2u);
  EXPECT_EQ(L.Guessed[0].Key, "asm");
  EXPECT_EQ(L.Guessed[1].warning(T),
            "key 'ld.global' is not in " + Gtx480 +
                ": priced 45 cycles, the median of its family 'ld'");
}

// A block's chain is priced where the notes have one, and no less than a
// cycle per instruction; without one, its whole mix (notes from before).
TEST(BlockPricing, ChainsPriceTheCriticalPath) {
  LatencyTable T = readLatencyTable(Gtx480);
  KernelNote K;
  K.Blocks.resize(3);
  K.Blocks[0].Mix = {{"mul.s32", 2}, {"rem.u32", 1}};
  K.Blocks[0].Instructions = 3;
  K.Blocks[0].CriticalPath = {{"mul.s32", 1}, {"rem.u32", 1}};
  K.Blocks[1].Mix = {{"mul.s32", 2}};
  K.Blocks[1].Instructions = 2;
  K.Blocks[2].Mix = {{"mul.s32", 40}};
  K.Blocks[2].Instructions = 40;
  K.Blocks[2].CriticalPath = {{"mul.s32", 1}};
  std::vector<double> C = priceChains(K, T);
  ASSERT_EQ(C.size(), 3u);
  EXPECT_EQ(C[0], 18 + 264);
  EXPECT_EQ(C[1], 2 * 18);
  EXPECT_EQ(C[2], 40);
}

} // namespace
} // namespace divopt
