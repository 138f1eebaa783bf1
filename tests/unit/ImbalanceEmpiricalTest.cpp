// Empirical work distributions from counts files: both line forms,
// comments, and every malformed input.
#include "imbalance/DistributionSpec.h"
#include "imbalance/EmpiricalDistribution.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

namespace divopt::imbalance {
namespace {

class CountsFile : public ::testing::Test {
protected:
  std::string write(const std::string &Text) {
    Path = ::testing::TempDir() + "divopt-counts-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".txt";
    std::ofstream(Path) << Text;
    return Path;
  }
  std::string errorOf(const std::string &Text) {
    try {
      readCountsFile(write(Text));
    } catch (const std::exception &E) {
      std::string Message = E.what();
      // Drop the temp dir, keep "file:line: why".
      return Message.substr(Message.find("divopt-counts-"));
    }
    return "";
  }
  void TearDown() override { std::remove(Path.c_str()); }
  std::string Path;
};

TEST_F(CountsFile, ValuesAndPairsAddUp) {
  WorkDistribution W = readCountsFile(write("# trip counts\n"
                                            "3\n"
                                            "\n"
                                            "5 2\n"
                                            "  3\t1  \n"
                                            "9 0\n"
                                            "6 4\n"));
  // 3 twice, 5 twice, 6 four times out of 8; 9 seen zero times adds nothing.
  EXPECT_EQ(W.Lo, 3u);
  EXPECT_EQ(W.hi(), 6u);
  ASSERT_EQ(W.Mass.size(), 4u);
  EXPECT_DOUBLE_EQ(W.Mass[0], 0.25);
  EXPECT_DOUBLE_EQ(W.Mass[1], 0.0);
  EXPECT_DOUBLE_EQ(W.Mass[2], 0.25);
  EXPECT_DOUBLE_EQ(W.Mass[3], 0.5);
  EXPECT_EQ(W.TruncatedMass, 0.0);
  EXPECT_EQ(W.Description, "empirical(" + Path + ")");
}

TEST_F(CountsFile, SamplerDrawsOnlyObservedValues) {
  WorkDistribution W = parseDistribution("empirical:" + write("2 1\n10 3\n"), 1e-6);
  Sampler Draw = W.MakeSampler();
  std::mt19937 G(7);
  unsigned Tens = 0;
  for (int I = 0; I < 4000; ++I) {
    uint64_t V = Draw(G);
    ASSERT_TRUE(V == 2 || V == 10) << V;
    Tens += V == 10;
  }
  EXPECT_NEAR(Tens / 4000.0, 0.75, 0.03);
}

TEST_F(CountsFile, MalformedLinesNameTheLine) {
  std::string Stem = std::string("divopt-counts-") +
                     ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".txt";
  EXPECT_EQ(errorOf("1\n-3\n"), Stem + ":2: value '-3' is not a non-negative integer");
  EXPECT_EQ(errorOf("4 -2\n"), Stem + ":1: count '-2' is not a non-negative integer");
  EXPECT_EQ(errorOf("4.5\n"), Stem + ":1: value '4.5' is not a non-negative integer");
  EXPECT_EQ(errorOf("x 1\n"), Stem + ":1: value 'x' is not a non-negative integer");
  EXPECT_EQ(errorOf("1 2 3\n"), Stem + ":1: expected 'VALUE' or 'VALUE COUNT', got 3 fields");
  EXPECT_EQ(errorOf("1 18446744073709551615\n1 1\n"),
            Stem + ":2: the counts of value 1 add up past 2^64");
}

TEST_F(CountsFile, NoObservationsIsAnEmptyDistribution) {
  std::string Stem = std::string("divopt-counts-") +
                     ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".txt";
  EXPECT_EQ(errorOf(""), Stem + "): empty distribution (no observations)");
  EXPECT_EQ(errorOf("# nothing\n5 0\n"), Stem + "): empty distribution (no observations)");
}

TEST_F(CountsFile, ValuesTooFarApartAreRefused) {
  std::string Message = errorOf("0\n2000000\n");
  EXPECT_NE(Message.find("values span 0..2000000, more than 1048576 values"), std::string::npos)
      << Message;
}

TEST(ImbalanceEmpirical, MissingFileSaysSo) {
  try {
    readCountsFile("/nonexistent/counts.txt");
    FAIL() << "no error";
  } catch (const std::exception &E) {
    EXPECT_STREQ(E.what(), "/nonexistent/counts.txt: cannot open counts file (No such file or "
                           "directory)");
  }
}

TEST(ImbalanceEmpirical, CountsFromAProfileNeedNoFile) {
  WorkDistribution W = empiricalDistribution("loop trips", {{4, 30}, {8, 2}});
  EXPECT_EQ(W.Lo, 4u);
  EXPECT_DOUBLE_EQ(W.Mass.front(), 30.0 / 32);
  EXPECT_DOUBLE_EQ(W.Mass.back(), 2.0 / 32);
  EXPECT_THROW(empiricalDistribution("loop trips", {}), std::invalid_argument);
}

} // namespace
} // namespace divopt::imbalance
