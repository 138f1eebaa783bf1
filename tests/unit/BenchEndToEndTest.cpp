// The End to end section of divopt bench (tool/BenchAnalysis.h,
// tool/BenchReport.h): the online variant's end-to-end speedup over the
// baseline, its kernel-only speedup, its share of the best forced algorithm's
// gain, and the targets with PASS/FAIL, from hand-made results.
#include "BenchAnalysis.h"
#include "BenchReport.h"
#include "BenchResults.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

namespace divopt::bench {
namespace {

VariantResult ran(const std::string &Name, double Ms, std::optional<double> EndToEnd = {},
                  Status S = Status::Ok) {
  VariantResult V;
  V.Name = Name;
  V.State = S;
  V.TimesMs = {Ms, Ms, Ms};
  V.Checksum = S == Status::Fail ? "00000000000000ff" : "0123456789abcdef";
  V.EndToEndMs = EndToEnd;
  return V;
}

// Baseline 10 ms a launch and 1000 ms end to end; Forced: the forced
// algorithms' kernel times; online: OnlineMs a launch, OnlineE2e end to end.
AppResult app(const std::string &Name, std::vector<std::pair<std::string, double>> Forced,
              double OnlineMs, std::optional<double> OnlineE2e, Status Online = Status::Ok) {
  AppResult A;
  A.App = Name;
  A.Variants.push_back(ran("baseline", 10, 1000));
  for (auto &[Algo, Ms] : Forced)
    A.Variants.push_back(ran(Algo, Ms));
  A.Variants.push_back(ran("online", OnlineMs, OnlineE2e, Online));
  return A;
}

// sw: greedy 2.5x, online 2.5x end to end (100% of it); mc: sorting 2x,
// online 2x; ec: nothing to gain (1x), online 1000/1010 = 0.990x.
BenchResults passing() {
  BenchResults R;
  R.Prov.Repeat = 100;
  R.Apps.push_back(app("sw", {{"sorting", 5}, {"greedy", 4}, {"greedy-max", 8}}, 4.5, 400));
  R.Apps.push_back(app("mc", {{"sorting", 5}}, 5, 500));
  R.Apps.push_back(app("ec", {{"sorting", 10}}, 10, 1010));
  return R;
}

TEST(BenchEndToEnd, RowsCompareOnlineWithTheBaselineAndTheBestForcedGain) {
  std::vector<EndToEndRow> Rows = endToEndRows(passing());
  ASSERT_EQ(Rows.size(), 3u);
  const EndToEndRow &Sw = Rows[0];
  EXPECT_EQ(Sw.App, "sw");
  EXPECT_DOUBLE_EQ(*Sw.OffMs, 1000);
  EXPECT_DOUBLE_EQ(*Sw.OnlineMs, 400);
  EXPECT_DOUBLE_EQ(*Sw.Speedup, 2.5);
  EXPECT_DOUBLE_EQ(*Sw.KernelSpeedup, 10 / 4.5);
  EXPECT_DOUBLE_EQ(*Sw.BestForced, 2.5); // greedy, kernel-only
  EXPECT_EQ(Sw.BestForcedAlgorithm, "greedy");
  EXPECT_DOUBLE_EQ(*Sw.Share, 1.0);
  const EndToEndRow &Ec = Rows[2];
  EXPECT_NEAR(*Ec.Speedup, 1000.0 / 1010, 1e-12);
  EXPECT_DOUBLE_EQ(*Ec.BestForced, 1.0);
  EXPECT_FALSE(Ec.Share); // below 1.2x: no share target
}

TEST(BenchEndToEnd, EveryTargetPasses) {
  auto S = endToEndSummary(endToEndRows(passing()));
  ASSERT_TRUE(S);
  const double Ec = 1000.0 / 1010;
  EXPECT_EQ(S->Apps, 3u);
  EXPECT_NEAR(S->Mean, (2.5 + 2 + Ec) / 3, 1e-12);
  EXPECT_NEAR(S->GeometricMean, std::cbrt(2.5 * 2 * Ec), 1e-12);
  EXPECT_NEAR(S->Min, Ec, 1e-12);
  EXPECT_EQ(S->MinApp, "ec");
  EXPECT_TRUE(S->MeanMet);          // 1.83 >= 1.75
  EXPECT_TRUE(S->GeometricMeanMet); // 1.70 >= 1.4
  EXPECT_EQ(S->ShareApps, 2u);      // sw and mc gain >= 1.2x forced
  EXPECT_TRUE(S->shareMet());
  EXPECT_TRUE(S->floorMet()); // 0.990 >= 0.98
  EXPECT_TRUE(S->complete());
  EXPECT_TRUE(S->allMet());

  std::ostringstream OS;
  writeMarkdownReport(OS, passing());
  std::string Report = OS.str();
  for (const char *Want :
       {"## End to end\n\nThe first 100 launches",
        "| app | off e2e ms | online e2e ms | online e2e speedup | online kernel-only | best forced "
        "kernel-only | online e2e share of it |",
        "| sw | 1000.000 | 400.000 | 2.500x | 2.22x | 2.50x (greedy) | 100.0% |",
        "| mc | 1000.000 | 500.000 | 2.000x | 2.00x | 2.00x (sorting) | 100.0% |",
        "| ec | 1000.000 | 1010.000 | 0.990x | 1.00x | 1.00x (sorting) | - |",
        "**Online, end to end, over 3 app(s): mean 1.830x, geometric mean 1.704x, minimum 0.990x "
        "(ec).**",
        "- mean >= 1.75x: 1.830x **PASS**", "- geometric mean >= 1.40x: 1.704x **PASS**",
        "- online e2e >= 90% of the best forced gain on every app where that gain >= 1.20x (2 "
        "app(s)): **PASS**\n",
        "- no app below 0.98x: **PASS**\n",
        "- every measured app has an online e2e speedup: **PASS**\n", "All targets met."})
    EXPECT_NE(Report.find(Want), std::string::npos) << Want << "\n" << Report;
  // online is not in Fig. 9: its overhead shows only end to end; its
  // kernel-times row has the kernel-only speedup alone.
  EXPECT_NE(Report.find("| app | sorting | greedy | greedy-max | auto | handwritten | oracle |"),
            std::string::npos)
      << Report;
  EXPECT_NE(Report.find("| online | ok | 4.500 | 0.0000 | 4.500 | 4.500 | 0.0000 | - | 2.22x |"),
            std::string::npos)
      << Report;
  // The End to end section comes after Fig. 9, before the kernel times.
  EXPECT_LT(Report.find("## Fig. 9 analog"), Report.find("## End to end"));
  EXPECT_LT(Report.find("## End to end"), Report.find("## Kernel times"));
}

TEST(BenchEndToEnd, EachMissedTargetFails) {
  BenchResults R = passing();
  R.Apps[1] = app("mc", {{"sorting", 5}}, 5, 600);   // 1.667x of 2x: 83.3% < 90%
  R.Apps[2] = app("ec", {{"sorting", 10}}, 10, 1100); // 0.909x < 0.98x
  R.Apps.push_back(app("walk", {{"sorting", 5}}, 5, 500, Status::Fail)); // wrong result
  std::vector<EndToEndRow> Rows = endToEndRows(R);
  ASSERT_EQ(Rows.size(), 4u);
  EXPECT_NEAR(*Rows[1].Share, (1000.0 / 600) / 2, 1e-12);
  EXPECT_FALSE(Rows[3].Speedup);
  EXPECT_EQ(Rows[3].Missing, "online FAIL: wrong result");
  EXPECT_TRUE(Rows[3].BestForced); // the forced algorithms still ran
  auto S = endToEndSummary(Rows);
  ASSERT_TRUE(S);
  const double Mc = 1000.0 / 600, Ec = 1000.0 / 1100;
  EXPECT_EQ(S->Apps, 3u); // walk has no figure
  EXPECT_NEAR(S->Mean, (2.5 + Mc + Ec) / 3, 1e-12); // 1.69
  EXPECT_FALSE(S->MeanMet);
  EXPECT_NEAR(S->GeometricMean, std::cbrt(2.5 * Mc * Ec), 1e-12); // 1.56
  EXPECT_TRUE(S->GeometricMeanMet);
  EXPECT_EQ(S->BelowShare, std::vector<std::string>{"mc"});
  EXPECT_EQ(S->BelowFloor, std::vector<std::string>{"ec"});
  EXPECT_EQ(S->Missing, std::vector<std::string>{"walk (online FAIL: wrong result)"});
  EXPECT_FALSE(S->allMet());

  std::ostringstream OS;
  writeMarkdownReport(OS, R);
  std::string Report = OS.str();
  for (const char *Want :
       {"| mc | 1000.000 | 600.000 | 1.667x | 2.00x | 2.00x (sorting) | 83.3% |",
        "| walk | 1000.000 | 500.000 | - (online FAIL: wrong result) | - | 2.00x (sorting) | - |",
        "minimum 0.909x (ec).**", "- mean >= 1.75x: 1.692x **FAIL**",
        "- geometric mean >= 1.40x: 1.559x **PASS**",
        "(2 app(s)): **FAIL** (mc)\n", "- no app below 0.98x: **FAIL** (ec)\n",
        "- every measured app has an online e2e speedup: **FAIL** (walk (online FAIL: wrong "
        "result))\n",
        "Not every target is met."})
    EXPECT_NE(Report.find(Want), std::string::npos) << Want << "\n" << Report;
}

// The share target applies from a forced gain of exactly 1.2x.
TEST(BenchEndToEnd, ShareTargetFromExactlyOnePointTwo) {
  BenchResults R;
  // 12 / 10 = 1.2x forced (kernel-only); online 1.07x end to end: 89%.
  R.Apps.push_back(app("sl", {{"greedy-max", 10}}, 12, 1000 / 1.07));
  R.Apps[0].Variants[0].TimesMs = {12, 12, 12};
  auto Rows = endToEndRows(R);
  EXPECT_DOUBLE_EQ(*Rows[0].BestForced, 1.2);
  ASSERT_TRUE(Rows[0].Share);
  EXPECT_NEAR(*Rows[0].Share, 1.07 / 1.2, 1e-12);
  auto S = endToEndSummary(Rows);
  EXPECT_EQ(S->ShareApps, 1u);
  EXPECT_FALSE(S->shareMet());
  // 12 / 10.1 = 1.19x forced: no share target.
  R.Apps[0].Variants[1].TimesMs = {10.1, 10.1, 10.1};
  EXPECT_FALSE(endToEndRows(R)[0].Share);
  EXPECT_EQ(endToEndSummary(endToEndRows(R))->ShareApps, 0u);
  EXPECT_TRUE(endToEndSummary(endToEndRows(R))->shareMet());
}

TEST(BenchEndToEnd, ResultsWithoutOnlineSayNothingWasMeasured) {
  BenchResults R;
  AppResult A;
  A.App = "sw";
  A.Variants.push_back(ran("baseline", 10));
  A.Variants.push_back(ran("sorting", 5));
  R.Apps.push_back(A);
  EXPECT_TRUE(endToEndRows(R).empty());
  std::ostringstream OS;
  writeMarkdownReport(OS, R);
  EXPECT_NE(OS.str().find("## End to end\n\nNo online end-to-end times in these results"),
            std::string::npos)
      << OS.str();
  // Skipped everywhere: the same.
  R.Apps[0].Variants.push_back(VariantResult{"online", Status::Skipped, "--skip-variants"});
  EXPECT_TRUE(endToEndRows(R).empty());
}

TEST(BenchEndToEnd, ErrorsAndMissingTimesAreNamed) {
  BenchResults R = passing();
  R.Apps[0].Variants.back() = VariantResult{"online", Status::Error, "exit 1"};
  R.Apps[1].Variants.back().EndToEndMs.reset();
  R.Apps[2].Variants.front().EndToEndMs.reset();
  std::vector<EndToEndRow> Rows = endToEndRows(R);
  EXPECT_EQ(Rows[0].Missing, "online error");
  EXPECT_EQ(Rows[1].Missing, "no online end-to-end time");
  EXPECT_EQ(Rows[2].Missing, "no baseline end-to-end time");
  EXPECT_FALSE(endToEndSummary(Rows));
  std::ostringstream OS;
  writeMarkdownReport(OS, R);
  EXPECT_NE(OS.str().find("No app has an online end-to-end speedup: sw (online error), mc (no "
                          "online end-to-end time), ec (no baseline end-to-end time). The "
                          "targets cannot be met: **FAIL**."),
            std::string::npos)
      << OS.str();
}

TEST(BenchEndToEnd, JsonKeepsEndToEndTimesAndTheOnlineStderr) {
  BenchResults R = passing();
  R.Apps[0].Variants.back().Stderr = "divopt: online summary\nkernel | kept\n";
  nlohmann::json J = toJson(R);
  const nlohmann::json &Sw = J["apps"][0]["variants"];
  EXPECT_DOUBLE_EQ(Sw[0]["end_to_end_ms"].get<double>(), 1000);
  EXPECT_FALSE(Sw[1].contains("end_to_end_ms")); // sorting: not timed end to end
  EXPECT_FALSE(Sw[1].contains("stderr"));
  EXPECT_EQ(Sw.back()["stderr"], "divopt: online summary\nkernel | kept\n");
  BenchResults Back = resultsFromJson(J, "test");
  const VariantResult *Online = Back.Apps[0].variant("online");
  ASSERT_TRUE(Online && Online->EndToEndMs);
  EXPECT_DOUBLE_EQ(*Online->EndToEndMs, 400);
  EXPECT_EQ(Online->Stderr, "divopt: online summary\nkernel | kept\n");
  EXPECT_FALSE(Back.Apps[0].variant("sorting")->EndToEndMs);
  // The report renders the stderr raw, in a collapsed block.
  std::ostringstream OS;
  writeMarkdownReport(OS, Back);
  EXPECT_NE(OS.str().find("<details><summary>sw: the online run's stderr (DIVOPT_VERBOSE=1)"
                          "</summary>\n\n```\ndivopt: online summary\nkernel | kept\n```\n"),
            std::string::npos)
      << OS.str();

  J["apps"][0]["variants"][0]["end_to_end_ms"] = -1;
  try {
    resultsFromJson(J, "r.json");
    FAIL() << "a negative end-to-end time was accepted";
  } catch (const std::runtime_error &E) {
    EXPECT_NE(std::string(E.what()).find("r.json: apps[0](sw).variants[0].end_to_end_ms"),
              std::string::npos)
        << E.what();
  }
}

} // namespace
} // namespace divopt::bench
