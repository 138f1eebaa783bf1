// The measured tables built into divopt: the H100's for sm_90, and the
// nearest table, with a warning, for a GPU without one.
#include "latency/BuiltinLatencyTables.h"

#include <gtest/gtest.h>

namespace divopt {
namespace {

TEST(BuiltinLatencyTables, Sm90IsTheMeasuredH100Table) {
  std::string Warning;
  LatencyTable T = builtinLatencyTable(90, Warning);
  EXPECT_TRUE(Warning.empty()) << Warning;
  EXPECT_FALSE(T.Placeholder);
  EXPECT_EQ(T.Provenance.ComputeCapability, 90u);
  EXPECT_NE(T.Provenance.Device.find("H100"), std::string::npos);
  // Hopper's FP32 FMA is 4 cycles; the table must be in that range.
  ASSERT_TRUE(T.Entries.count("fma.f32"));
  EXPECT_NEAR(T.Entries.at("fma.f32").Median, 4.0, 0.5);
  EXPECT_GT(T.Entries.at("ld.global.dram").Median, T.Entries.at("ld.global.l2").Median);
}

TEST(BuiltinLatencyTables, OtherGpusGetTheNearestWithAWarning) {
  std::string Warning;
  LatencyTable T = builtinLatencyTable(80, Warning);
  EXPECT_EQ(T.Provenance.ComputeCapability, 90u);
  EXPECT_NE(Warning.find("compute capability 8.0"), std::string::npos) << Warning;
  EXPECT_NE(Warning.find("nearest"), std::string::npos) << Warning;
}

} // namespace
} // namespace divopt
