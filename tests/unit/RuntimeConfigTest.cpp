// DIVOPT_PROFILE_FILE patterns, as LLVM_PROFILE_FILE: %p pid, %m program.
#include "launch/RuntimeConfig.h"

#include <gtest/gtest.h>

using divopt::rt::expandProfilePattern;

TEST(RuntimeConfigTest, ExpandsPidAndProgram) {
  EXPECT_EQ(expandProfilePattern("run-%p.divprof", 4242, "app"), "run-4242.divprof");
  EXPECT_EQ(expandProfilePattern("%m/%m-%p", 7, "solver"), "solver/solver-7");
}

TEST(RuntimeConfigTest, KeepsEverythingElse) {
  EXPECT_EQ(expandProfilePattern("default.divprof", 1, "x"), "default.divprof");
  EXPECT_EQ(expandProfilePattern("100%%-%q", 1, "x"), "100%-%q");
  EXPECT_EQ(expandProfilePattern("trailing%", 1, "x"), "trailing%");
}
