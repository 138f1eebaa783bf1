// Table V, Fig. 9 and the oracle as divopt bench derives them from results
// (tool/BenchAnalysis.h), and the results JSON round trip they rely on.
#include "BenchAnalysis.h"
#include "BenchReport.h"
#include "BenchResults.h"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

namespace divopt::bench {
namespace {

VariantResult ran(const std::string &Name, std::vector<double> Times, double Overhead = 0,
                  Status S = Status::Ok) {
  VariantResult V;
  V.Name = Name;
  V.State = S;
  V.TimesMs = std::move(Times);
  V.Checksum = S == Status::Fail ? "00000000000000ff" : "0123456789abcdef";
  V.OverheadMs = Overhead;
  V.Regrouped = Name != "baseline";
  return V;
}

AppResult app(const std::string &Name, bool ComputeBound, double Baseline,
              std::vector<std::pair<std::string, double>> Variants,
              std::map<std::string, AlgorithmPrediction> Predicted) {
  AppResult A;
  A.App = Name;
  A.ComputeBound = ComputeBound;
  A.Variants.push_back(ran("baseline", {Baseline, Baseline, Baseline}));
  for (auto &[V, Ms] : Variants)
    A.Variants.push_back(ran(V, {Ms, Ms, Ms}, 1.0));
  A.Predicted.Present = true;
  A.Predicted.Algorithms = std::move(Predicted);
  return A;
}

TEST(BenchTableV, ErrorIsPercentagePointsBetweenPredictedAndActualImprovement) {
  BenchResults R;
  // sw: sorting 10 -> 4 ms (60%, 50% with 1 ms overhead), predicted 55% and 62%.
  R.Apps.push_back(app("sw", true, 10, {{"sorting", 4}}, {{"sorting", {0.55, 0.62, 0.60, 0.3}}}));
  // ec (memory-bound): greedy 10 -> 9 ms (10%, 0%), predicted 40% and 30%.
  R.Apps.push_back(app("ec", false, 10, {{"greedy", 9}}, {{"greedy", {0.40, 0.30, 0.25, 0.1}}}));
  std::vector<ErrorRow> Rows = estimationErrors(R);
  ASSERT_EQ(Rows.size(), 2u);
  EXPECT_EQ(Rows[0].App, "sw");
  EXPECT_NEAR(Rows[0].Actual, 0.6, 1e-12);
  EXPECT_NEAR(Rows[0].ActualWithOverhead, 0.5, 1e-12);
  EXPECT_NEAR(Rows[0].errorWeighted(), 5, 1e-9);
  EXPECT_NEAR(Rows[0].errorScheduled(), 2, 1e-9);
  EXPECT_NEAR(Rows[0].errorScheduledRedirected(), 0, 1e-9);
  EXPECT_NEAR(Rows[0].errorWeightedWithOverhead(), 5, 1e-9);
  EXPECT_NEAR(Rows[0].errorScheduledWithOverhead(), 12, 1e-9);
  EXPECT_NEAR(Rows[1].errorScheduled(), 20, 1e-9);

  auto Compute = averageError(Rows, true);
  ASSERT_TRUE(Compute);
  EXPECT_EQ(Compute->Rows, 1u);
  EXPECT_NEAR(Compute->Scheduled, 2, 1e-9);
  auto All = averageError(Rows, false);
  ASSERT_TRUE(All);
  EXPECT_EQ(All->Rows, 2u);
  EXPECT_NEAR(All->Weighted, (5 + 30) / 2.0, 1e-9);
  EXPECT_NEAR(All->Scheduled, (2 + 20) / 2.0, 1e-9);
  EXPECT_FALSE(averageError({}, false));
}

TEST(BenchTableV, WrongResultsAndUnpredictedAlgorithmsAreLeftOut) {
  BenchResults R;
  AppResult A = app("nw", true, 10, {{"greedy", 5}}, {{"sorting", {0.5, 0.5, 0.5, 0.5}}});
  A.Variants.push_back(ran("sorting", {5, 5, 5}, 0, Status::Fail));
  R.Apps.push_back(A);
  EXPECT_TRUE(estimationErrors(R).empty()); // greedy not predicted, sorting wrong
  EXPECT_FALSE(numbersFor(R.Apps[0], "sorting"));
  EXPECT_TRUE(timesAgainstBaseline(R.Apps[0], "sorting")); // the report still shows its times
  EXPECT_EQ(R.failures(), 1u);
}

TEST(BenchFig9, OverheadIsChargedToEveryLaunch) {
  AppResult A = app("sl", true, 12, {{"greedy-max", 5}}, {});
  auto N = numbersFor(A, "greedy-max");
  ASSERT_TRUE(N);
  EXPECT_DOUBLE_EQ(N->Speedup, 12.0 / 6.0);
  EXPECT_DOUBLE_EQ(N->KernelSpeedup, 12.0 / 5.0);
  BenchResults R;
  R.Apps = {A, app("sm", true, 3, {{"greedy-max", 2}}, {})};
  auto S = speedupSummary(R, "greedy-max", false);
  ASSERT_TRUE(S);
  EXPECT_EQ(S->Apps, 2u);
  EXPECT_DOUBLE_EQ(S->Mean, (2.0 + 1.0) / 2);
  EXPECT_DOUBLE_EQ(S->Max, 2.0);
  EXPECT_FALSE(speedupSummary(R, "handwritten", false));
}

TEST(BenchOracle, FastestCorrectAlgorithmOverheadIncluded) {
  // greedy's kernel is fastest, but sorting's is fastest with the overhead.
  AppResult A = app("mc", true, 10, {{"sorting", 4}, {"greedy", 3.5}}, {});
  A.Variants[2].OverheadMs = 2; // greedy: 5.5 ms charged; sorting 5
  VariantResult O = deriveOracle(A);
  EXPECT_EQ(O.State, Status::Ok);
  EXPECT_EQ(O.DerivedFrom, "sorting");
  EXPECT_EQ(O.TimesMs, A.Variants[1].TimesMs);
  AppResult None = app("mc", true, 10, {}, {});
  EXPECT_EQ(deriveOracle(None).State, Status::Skipped);
}

TEST(BenchResultsJson, RoundTripKeepsWhatTheReportNeeds) {
  BenchResults R;
  R.Prov.Device = "NVIDIA H100";
  R.Prov.Repeat = 3;
  AppResult A = app("sw", true, 10, {{"sorting", 4}}, {{"sorting", {0.5, 0.4, 0.3, 0.2}}});
  A.Predicted.Warps = 8;
  A.Predicted.DivergentWarps = 6;
  A.Predicted.AutoChoice = "sorting";
  A.Predicted.SmPipesCyclesAsWritten = 3e7;
  A.Predicted.TableSmClockMHz = 2000;
  A.Variants.push_back(VariantResult{"model", Status::Skipped, "divopt fit is not in this build"});
  R.Apps.push_back(A);
  BenchResults Back = resultsFromJson(toJson(R), "test");
  ASSERT_EQ(Back.Apps.size(), 1u);
  const AppResult &B = Back.Apps[0];
  EXPECT_EQ(B.Variants.size(), 3u);
  EXPECT_EQ(B.variant("sorting")->TimesMs, A.variant("sorting")->TimesMs);
  EXPECT_EQ(B.variant("model")->State, Status::Skipped);
  EXPECT_DOUBLE_EQ(B.Predicted.Algorithms.at("sorting").BbvWeightedScheduled, 0.4);
  EXPECT_DOUBLE_EQ(B.Predicted.divergentWarpRatio(), 0.75);
  EXPECT_EQ(B.Predicted.AutoChoice, "sorting");
  EXPECT_EQ(B.Predicted.SmPipesCyclesAsWritten, 3e7);
  EXPECT_DOUBLE_EQ(B.Predicted.TableSmClockMHz, 2000);
  // The report sets the estimate beside the measured 10 ms: 3e7 cycles at
  // 2 GHz are 15 ms.
  std::ostringstream Report;
  writeMarkdownReport(Report, Back);
  EXPECT_NE(Report.str().find("| sw | 10.000 | 15.000 | 1.50 |"), std::string::npos)
      << Report.str();

  nlohmann::json J = toJson(R);
  J["apps"][0]["prediction"]["table_sm_clock_mhz"] = 0;
  EXPECT_THROW(resultsFromJson(J, "r.json"), std::runtime_error);
  J = toJson(R);
  J["apps"][0]["variants"][1]["status"] = "great";
  try {
    resultsFromJson(J, "r.json");
    FAIL() << "an unknown status was accepted";
  } catch (const std::runtime_error &E) {
    EXPECT_NE(std::string(E.what()).find("r.json: apps[0](sw).variants[1].status"),
              std::string::npos)
        << E.what();
  }
}

// Seed 002 section VI: the model variant's speedup as a share of the exact
// BBVs' (auto), and how far its BBVs were off, in the report.
TEST(BenchReport, ModelSpeedupAsAShareOfTheExactBbvs) {
  BenchResults R;
  // 10 ms; auto 4 + 1 ms overhead: 2x; model 5 + 1 ms: 1.67x, 83% of it.
  R.Apps.push_back(app("sw", true, 10, {{"auto", 4}, {"model", 5}}, {}));
  R.Apps[0].Variants.back().PredictionCheck = "mean absolute BBV error 0.5 per block and thread";
  std::ostringstream OS;
  writeMarkdownReport(OS, R);
  std::string Report = OS.str();
  EXPECT_NE(Report.find("Predicted BBVs (model) reach 1.67x of the exact BBVs' (auto) 2.00x: 83% "
                        "of that speedup."),
            std::string::npos)
      << Report;
  EXPECT_NE(Report.find("BBVs predicted for seed 1: mean absolute BBV error 0.5 per block"),
            std::string::npos);
  // No share of a slowdown.
  BenchResults Slower;
  Slower.Apps.push_back(app("sw", true, 10, {{"auto", 12}, {"model", 11}}, {}));
  std::ostringstream Slow;
  writeMarkdownReport(Slow, Slower);
  EXPECT_EQ(Slow.str().find("of that speedup"), std::string::npos) << Slow.str();
  EXPECT_NE(Slow.str().find("Exact BBVs (auto) do not speed this app up here (0.77x, overhead "
                            "included); predicted BBVs (model): 0.83x."),
            std::string::npos)
      << Slow.str();
  // Without a measured model variant, no such line.
  R.Apps[0].Variants.pop_back();
  std::ostringstream Without;
  writeMarkdownReport(Without, R);
  EXPECT_EQ(Without.str().find("Predicted BBVs (model)"), std::string::npos);
}

} // namespace
} // namespace divopt::bench
