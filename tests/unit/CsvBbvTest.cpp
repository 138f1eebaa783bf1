// divopt analyze's CSV inputs: BBVs from anywhere, and block latencies.
// Bad files fail with the file, line and column of the first problem.
#include "analyze/CsvBbv.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

namespace divopt {
namespace {

class CsvBbvTest : public testing::Test {
protected:
  std::string write(const std::string &Name, const std::string &Text) {
    std::string Path = testing::TempDir() + "divopt-" + Name;
    std::ofstream(Path) << Text;
    Paths.push_back(Path);
    return Path;
  }
  std::string bbvError(const std::string &Text) {
    std::string Path = write("bbv.csv", Text);
    try {
      readBbvCsv(Path);
    } catch (const std::runtime_error &E) {
      return std::string(E.what()).substr(Path.size());
    }
    return "no error";
  }
  std::string latError(const std::string &Text, uint32_t Blocks) {
    std::string Path = write("lat.csv", Text);
    try {
      readBlockLatencyCsv(Path, Blocks, "bbv.csv");
    } catch (const std::runtime_error &E) {
      return std::string(E.what()).substr(Path.size());
    }
    return "no error";
  }
  void TearDown() override {
    for (const std::string &P : Paths)
      std::remove(P.c_str());
  }
  std::vector<std::string> Paths;
};

TEST_F(CsvBbvTest, ReadsRowsPerThreadIntoBlockMajorCounts) {
  CsvBbv B = readBbvCsv(write("ok.csv", "entry,loop,exit\n1,5,1\r\n1, 0 ,1\n\n1,7,1\n"));
  EXPECT_EQ(B.Threads, 3u);
  EXPECT_EQ(B.Blocks, 3u);
  EXPECT_EQ(B.Counts, (std::vector<uint32_t>{1, 1, 1, 5, 0, 7, 1, 1, 1}));
  CsvBbv NoHeader = readBbvCsv(write("noheader.csv", "4,2\n3,1\n"));
  EXPECT_EQ(NoHeader.Threads, 2u);
  EXPECT_EQ(NoHeader.Counts, (std::vector<uint32_t>{4, 3, 2, 1}));
}

TEST_F(CsvBbvTest, BadBbvFilesSayWhereAndWhat) {
  EXPECT_EQ(bbvError("1,2,3\n4,5\n"), ":2: 2 columns, expected 3 as on line 1");
  EXPECT_EQ(bbvError("a,b\n1,2,3\n"), ":2: 3 columns, but the header names 2");
  EXPECT_EQ(bbvError("1,2\n3,-4\n"), ":2: column 2: negative count '-4'");
  EXPECT_EQ(bbvError("1,2.5\n"), ":1: column 2: '2.5' is not a non-negative integer count");
  EXPECT_EQ(bbvError("1,x\n"), ":1: column 2: 'x' is not a non-negative integer count");
  EXPECT_EQ(bbvError("1,\n"), ":1: column 2: '' is not a non-negative integer count");
  EXPECT_EQ(bbvError("1,4294967296\n"), ":1: column 2: count 4294967296 does not fit 32 bits");
  EXPECT_EQ(bbvError("a,b\n"), ": no BBV rows");
  EXPECT_THROW(readBbvCsv("/nonexistent/bbv.csv"), std::runtime_error);
}

TEST_F(CsvBbvTest, ReadsLatenciesInAnyOrder) {
  std::vector<double> L =
      readBlockLatencyCsv(write("lat.csv", "block,latency\n2,610\n0,1.5\n1,0\n"), 3, "bbv.csv");
  EXPECT_EQ(L, (std::vector<double>{1.5, 0, 610}));
}

TEST_F(CsvBbvTest, BadLatencyFilesSayWhereAndWhat) {
  EXPECT_EQ(latError("0,1\n1,2\n", 3), ": latencies for 2 basic blocks, but bbv.csv has 3 block "
                                       "columns");
  EXPECT_EQ(latError("0,1\n1,2\n2,3\n", 2), ":3: block 2 is past the 2 block columns of bbv.csv");
  EXPECT_EQ(latError("0,1\n2,3\n", 3), ": no latency for block 1");
  EXPECT_EQ(latError("0,1\n0,2\n", 2), ":2: block 0 is given twice");
  EXPECT_EQ(latError("0,-1\n", 1), ":1: latency '-1' is not a non-negative number of cycles");
  EXPECT_EQ(latError("0,fast\n", 1), ":1: latency 'fast' is not a non-negative number of cycles");
  EXPECT_EQ(latError("0,1,2\n", 1), ":1: expected 'block,latency', found 3 fields");
}

} // namespace
} // namespace divopt
