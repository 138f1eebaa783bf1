// What divopt bench reads from an app run (tool/BenchAppOutput.h): the one
// JSON line of the contract on stdout, and the runtime's decision lines on
// stderr. Every malformed line is an error naming the app.
#include "BenchAppOutput.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace divopt::bench {
namespace {

const char *const Good =
    R"({"app":"sw","variant":"original","kernel":"_Z2swPKiPi","threads":327680,"size":327680,)"
    R"("seed":1,"repeat":3,"times_ms":[1.5,1.25,1.75],"median_ms":1.5,"min_ms":1.25,)"
    R"("max_ms":1.75,"checksum":"00112233AABBCCDD","check":"pass","regroup_ms":0,)"
    R"("compute_bound":true})";

TEST(BenchAppOutput, ParsesTheContractLine) {
  AppOutput O = parseAppOutput("sw", std::string("\n") + Good + "\n");
  EXPECT_EQ(O.App, "sw");
  EXPECT_EQ(O.Variant, "original");
  EXPECT_EQ(O.Kernel, "_Z2swPKiPi");
  EXPECT_EQ(O.Threads, 327680u);
  EXPECT_EQ(O.Repeat, 3);
  EXPECT_EQ(O.TimesMs, (std::vector<double>{1.5, 1.25, 1.75}));
  EXPECT_DOUBLE_EQ(O.MedianMs, 1.5);
  EXPECT_EQ(O.Checksum, "00112233aabbccdd"); // compared case-blind
  EXPECT_EQ(O.Check, "pass");
  EXPECT_TRUE(O.ComputeBound);
  EXPECT_FALSE(O.EndToEndMs); // no --end-to-end, no field
}

// --end-to-end adds the host wall time of the first `repeat` launches; without
// the flag the frame prints null.
TEST(BenchAppOutput, EndToEndTimeWhenAskedFor) {
  std::string Line = Good;
  Line.insert(Line.size() - 1, R"(,"end_to_end_ms":31.5)");
  auto O = parseAppOutput("sw", Line);
  ASSERT_TRUE(O.EndToEndMs);
  EXPECT_DOUBLE_EQ(*O.EndToEndMs, 31.5);
  Line = Good;
  Line.insert(Line.size() - 1, R"(,"end_to_end_ms":null)");
  EXPECT_FALSE(parseAppOutput("sw", Line).EndToEndMs);
}

// The message of parsing Stdout as App's output, or "" if it parsed.
std::string problem(const std::string &App, const std::string &Stdout) {
  try {
    parseAppOutput(App, Stdout);
  } catch (const std::runtime_error &E) {
    return E.what();
  }
  return "";
}

std::string with(const std::string &From, const std::string &To) {
  std::string S = Good;
  size_t At = S.find(From);
  EXPECT_NE(At, std::string::npos) << From;
  return S.replace(At, From.size(), To);
}

TEST(BenchAppOutput, MalformedLinesNameTheAppAndTheProblem) {
  EXPECT_EQ(problem("sw", ""), "bench-app-sw: printed nothing on stdout (expected one JSON line)");
  EXPECT_EQ(problem("sw", std::string("progress 50%\n") + Good),
            "bench-app-sw: printed 2 lines on stdout (expected exactly one JSON line; "
            "diagnostics go to stderr)");
  EXPECT_NE(problem("nw", "{\"app\": \"nw\",").find("bench-app-nw: its stdout line is not JSON"),
            std::string::npos);
  EXPECT_EQ(problem("sw", "[1, 2]"), "bench-app-sw: its stdout line is JSON but not an object");
  EXPECT_EQ(problem("nw", Good), "bench-app-nw: its JSON line names app \"sw\"");
  EXPECT_EQ(problem("sw", with(R"("kernel":"_Z2swPKiPi",)", "")),
            "bench-app-sw: its JSON line has no \"kernel\"");
  EXPECT_EQ(problem("sw", with(R"("threads":327680)", R"("threads":"many")")),
            "bench-app-sw: \"threads\" is not a non-negative integer");
  EXPECT_EQ(problem("sw", with("[1.5,1.25,1.75]", "[1.5,1.25]")),
            "bench-app-sw: \"times_ms\" has 2 times for repeat 3");
  EXPECT_EQ(problem("sw", with("[1.5,1.25,1.75]", "[1.5,-1,1.75]")),
            "bench-app-sw: \"times_ms\" is not a non-negative number of milliseconds");
  EXPECT_EQ(problem("sw", with("00112233AABBCCDD", "0x12")),
            "bench-app-sw: \"checksum\" \"0x12\" is not 16 hex digits");
  EXPECT_EQ(problem("sw", with(R"("check":"pass")", R"("check":"fail")")),
            "bench-app-sw: \"check\" is \"fail\" (expected pass or skipped)");
  EXPECT_EQ(problem("sw", with(R"("compute_bound":true)", R"("compute_bound":1)")),
            "bench-app-sw: \"compute_bound\" is not true or false");
  EXPECT_EQ(problem("sw", with(R"("compute_bound":true)", R"("compute_bound":true,"end_to_end_ms":-2)")),
            "bench-app-sw: \"end_to_end_ms\" is not a non-negative number of milliseconds");
  EXPECT_EQ(problem("sw", with(R"("compute_bound":true)", R"("compute_bound":true,"end_to_end_ms":"3")")),
            "bench-app-sw: \"end_to_end_ms\" is not a non-negative number of milliseconds");
}

TEST(BenchAppOutput, RuntimeDecisionsFromVerboseStderr) {
  std::string Stderr =
      "generating input...\n"
      "divopt: not regrouping _Z4initPi <<<64x1x1, 256x1x1>>>: predicted gains (sorting 0.0%) "
      "below DIVOPT_MIN_GAIN 5.0% [decided in 0.3 ms]\n"
      "divopt: regrouping _Z2swPKiPi <<<1280x1x1, 256x1x1>>>: greedy-max (forced), predicted "
      "gains: greedy-max 41.2%; 9000 distinct BBVs, 132 SMs x 8 blocks [decided in 12.5 ms] "
      "(profile 0.2 ms, classes 5.1 ms, model 1.0 ms, greedy-max 4.0 + 1.2 ms)\n";
  std::vector<RuntimeDecision> All = parseRuntimeDecisions(Stderr);
  ASSERT_EQ(All.size(), 2u);
  EXPECT_FALSE(All[0].Regrouped);
  EXPECT_EQ(All[0].Kernel, "_Z4initPi");
  EXPECT_EQ(All[0].SMs, 0u);
  auto D = decisionFor(All, "_Z2swPKiPi");
  ASSERT_TRUE(D);
  EXPECT_TRUE(D->Regrouped);
  EXPECT_EQ(D->Shape, "<<<1280x1x1, 256x1x1>>>");
  EXPECT_DOUBLE_EQ(D->DecidedMs, 12.5);
  EXPECT_EQ(D->Stages, "profile 0.2 ms, classes 5.1 ms, model 1.0 ms, greedy-max 4.0 + 1.2 ms");
  EXPECT_EQ(All[0].Stages, "");
  EXPECT_EQ(D->SMs, 132u);
  EXPECT_EQ(D->Occupancy, 8u);
  EXPECT_NE(D->Why.find("greedy-max (forced)"), std::string::npos);
  EXPECT_FALSE(decisionFor(All, "_Z2nwPKiPi"));
}

TEST(BenchAppOutput, PredictionCheckOfTheAppsKernel) {
  std::string Stdout =
      "Model written to w/sw.divmodel (optimize mode reads DIVOPT_MODEL, else ...)\n"
      "check: kernel _Z4initPi on w/sw.divprof: cannot check: no launch of _Z4initPi to check\n"
      "check: kernel _Z2swPKiPi on w/sw.divprof: 1 launch, 128 threads: mean absolute BBV "
      "error 0.25 per block and thread (1.5% of the counts), 90% of threads predicted exactly\n";
  EXPECT_EQ(predictionCheckFor(Stdout, "_Z2swPKiPi"),
            "1 launch, 128 threads: mean absolute BBV error 0.25 per block and thread (1.5% of "
            "the counts), 90% of threads predicted exactly");
  EXPECT_EQ(predictionCheckFor(Stdout, "_Z4initPi"),
            "cannot check: no launch of _Z4initPi to check");
  EXPECT_EQ(predictionCheckFor(Stdout, "_Z2nwPKiPi"), "");
}

} // namespace
} // namespace divopt::bench
