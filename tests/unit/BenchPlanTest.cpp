// divopt bench's experiment for one app (tool/BenchPlan.h), end to end
// without a GPU: a shell script stands in for bench-app-sw, speaking the
// app contract and printing the runtime's DIVOPT_VERBOSE lines, and a
// hand-made profile stands in for the profile run.
#include "BenchPlan.h"
#include "TestKernels.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace divopt::bench {
namespace {

namespace fs = std::filesystem;

// The fake app: 1 ms per launch (0.5 ms regrouped, 0.6 hand-written);
// DIVOPT_ALGORITHM=greedy computes a wrong checksum; a profile run copies
// Profile; Behaviour "check-fails" and "hangs" break the baseline. With
// --end-to-end it reports 5.5 ms end to end, 3.25 ms when online (optimize
// mode with neither profile nor model), and the online runtime prints its
// summary on stderr.
std::string fakeApp(const std::string &Profile, const std::string &Behaviour) {
  return R"(#!/bin/sh
variant=original; repeat=20; e2e=null
while [ $# -gt 0 ]; do
  case "$1" in --variant) variant=$2; shift;; --repeat) repeat=$2; shift;; --end-to-end) e2e=5.5;; esac; shift
done
behaviour=)" + Behaviour + R"(
[ "$behaviour" = hangs ] && sleep 30
[ "$behaviour" = check-fails ] && { echo "output[3] = 7, CPU reference 8" >&2; exit 3; }
ms=1.0; checksum=00000000000000aa; regroup=0
case "$DIVOPT_MODE" in
  profile) cp ')" + Profile + R"(' "$DIVOPT_PROFILE_FILE";;
  optimize)
    ms=0.5
    if [ -z "$DIVOPT_PROFILE_USE" ] && [ "$DIVOPT_MODEL" = none ]; then
      [ $e2e = null ] || e2e=3.25
      printf 'divopt: online summary\n_Z6kernelPi  kept: regrouped\n' >&2
    fi
    [ "$DIVOPT_ALGORITHM" = greedy ] && checksum=00000000000000bb
    echo "divopt: regrouping _Z6kernelPi <<<2x1x1, 64x1x1>>>: $DIVOPT_ALGORITHM (forced), predicted gains: 50.0%; 2 distinct BBVs, 4 SMs x 2 blocks [decided in 0.5 ms]" >&2;;
esac
[ "$variant" = handwritten ] && { ms=0.6; regroup=0.25; }
times=$ms; i=1
while [ $i -lt $repeat ]; do times="$times,$ms"; i=$((i+1)); done
echo "{\"app\":\"sw\",\"variant\":\"$variant\",\"kernel\":\"_Z6kernelPi\",\"threads\":128,\"size\":128,\"seed\":1,\"repeat\":$repeat,\"times_ms\":[$times],\"median_ms\":$ms,\"min_ms\":$ms,\"max_ms\":$ms,\"checksum\":\"$checksum\",\"check\":\"pass\",\"regroup_ms\":$regroup,\"compute_bound\":true,\"end_to_end_ms\":$e2e}"
)";
}

// 128 threads of a 3-block kernel; odd threads run block 1 once more, so
// every warp diverges and sorting separates them.
void writeProfile(const std::string &Path) {
  LaunchProfile P = test::launchOf(test::kernelWithBlocks(3), {2, 1, 1}, {64, 1, 1});
  for (uint64_t T = 0; T < 128; ++T) {
    P.Counts[0 * 128 + T] = 1;
    P.Counts[1 * 128 + T] = 1 + T % 2;
    P.Counts[2 * 128 + T] = 1;
  }
  std::FILE *F = std::fopen(Path.c_str(), "wb");
  ASSERT_TRUE(F);
  ASSERT_TRUE(writeLaunchRecord(F, P.Header, 3, 0, P.Counts.data(), P.Branches.data()));
  std::fclose(F);
}

class BenchPlanTest : public ::testing::Test {
protected:
  fs::path Dir = fs::temp_directory_path() / ("divopt-bench-plan-" + std::to_string(getpid()));
  PlanOptions O;
  Progress P;

  void SetUp() override {
    fs::create_directories(Dir / "work");
    writeProfile((Dir / "sw-source.divprof").string());
    O.AppDir = Dir.string();
    O.WorkDir = (Dir / "work").string();
    O.Repeat = 5;
    O.TimeoutSeconds = 20;
    O.Gpu = {true, "", "Test GPU", 90, 132};
  }
  void TearDown() override { fs::remove_all(Dir); }

  void install(const std::string &Behaviour) {
    std::string Path = appProgram(O.AppDir, "sw");
    std::ofstream(Path) << fakeApp((Dir / "sw-source.divprof").string(), Behaviour);
    chmod(Path.c_str(), 0755);
  }
};

TEST_F(BenchPlanTest, EveryVariantMeasuredCheckedAndPredicted) {
  install("normal");
  AppResult R = benchmarkApp("sw", O, P);
  ASSERT_EQ(R.Error, "");
  EXPECT_EQ(R.Kernel, "_Z6kernelPi");
  EXPECT_EQ(R.Threads, 128u);
  std::vector<std::string> Names;
  for (const VariantResult &V : R.Variants)
    Names.push_back(V.Name);
  EXPECT_EQ(Names, variantNames());

  const VariantResult *Sorting = R.variant("sorting");
  EXPECT_EQ(Sorting->State, Status::Ok);
  EXPECT_EQ(Sorting->TimesMs, std::vector<double>(5, 0.5));
  EXPECT_DOUBLE_EQ(Sorting->OverheadMs, 0.5);
  EXPECT_TRUE(Sorting->Regrouped);
  EXPECT_NE(Sorting->Command.find("DIVOPT_ALGORITHM=sorting"), std::string::npos);

  const VariantResult *Greedy = R.variant("greedy");
  EXPECT_EQ(Greedy->State, Status::Fail);
  EXPECT_NE(Greedy->Note.find("checksum 00000000000000bb differs from the baseline's "
                              "00000000000000aa"),
            std::string::npos)
      << Greedy->Note;

  EXPECT_EQ(R.variant("model")->State, Status::Skipped);

  // baseline and online are timed end to end; online decides alone: no
  // profile, no model, its stderr kept.
  const VariantResult *Baseline = R.variant("baseline");
  ASSERT_TRUE(Baseline->EndToEndMs);
  EXPECT_DOUBLE_EQ(*Baseline->EndToEndMs, 5.5);
  EXPECT_NE(Baseline->Command.find("--end-to-end"), std::string::npos) << Baseline->Command;
  EXPECT_FALSE(Sorting->EndToEndMs);
  EXPECT_EQ(Sorting->Command.find("--end-to-end"), std::string::npos) << Sorting->Command;
  const VariantResult *Online = R.variant("online");
  EXPECT_EQ(Online->State, Status::Ok) << Online->Note;
  ASSERT_TRUE(Online->EndToEndMs);
  EXPECT_DOUBLE_EQ(*Online->EndToEndMs, 3.25);
  EXPECT_EQ(Online->TimesMs, std::vector<double>(5, 0.5));
  EXPECT_DOUBLE_EQ(Online->OverheadMs, 0);
  for (const char *Want : {"DIVOPT_MODE=optimize", "DIVOPT_MODEL=none", "DIVOPT_VERBOSE=1",
                           "--end-to-end", "--repeat 5", "--variant original"})
    EXPECT_NE(Online->Command.find(Want), std::string::npos) << Want << ": " << Online->Command;
  EXPECT_EQ(Online->Command.find("DIVOPT_PROFILE_USE"), std::string::npos) << Online->Command;
  EXPECT_EQ(Online->Command.find("DIVOPT_ALGORITHM"), std::string::npos) << Online->Command;
  EXPECT_NE(Online->Stderr.find("divopt: online summary\n_Z6kernelPi  kept: regrouped"),
            std::string::npos)
      << Online->Stderr;
  const VariantResult *Hand = R.variant("handwritten");
  EXPECT_EQ(Hand->State, Status::Ok);
  EXPECT_DOUBLE_EQ(Hand->OverheadMs, 0.25);
  const VariantResult *Oracle = R.variant("oracle");
  EXPECT_EQ(Oracle->State, Status::Ok);
  EXPECT_NE(Oracle->DerivedFrom, "greedy"); // a wrong result is never the oracle

  // Predicted on the runtime's machine (4 SMs x 2 blocks, from its line).
  ASSERT_TRUE(R.Predicted.Present) << R.Predicted.Why;
  EXPECT_EQ(R.Predicted.SMs, 4u);
  EXPECT_EQ(R.Predicted.Occupancy, 2u);
  EXPECT_EQ(R.Predicted.Warps, 4u);
  EXPECT_EQ(R.Predicted.DivergentWarps, 4u);
  ASSERT_TRUE(R.Predicted.Algorithms.count("sorting"));
  EXPECT_DOUBLE_EQ(R.Predicted.Algorithms.at("sorting").DivergentWarps, 1.0);
  EXPECT_GT(R.Predicted.Algorithms.at("sorting").BbvWeighted, 0.0);
  // Both blocks run at once on SMs of their own, so the heavy warps set the
  // time before and after: SM-shared predicts no gain.
  ASSERT_TRUE(R.Predicted.Algorithms.at("sorting").BbvWeightedSmShared);
  EXPECT_NEAR(*R.Predicted.Algorithms.at("sorting").BbvWeightedSmShared, 0.0, 1e-12);
}

TEST_F(BenchPlanTest, SkippedVariantsAreNotRun) {
  install("normal");
  O.Skip = {"greedy", "handwritten", "online"};
  AppResult R = benchmarkApp("sw", O, P);
  EXPECT_EQ(R.variant("online")->State, Status::Skipped);
  EXPECT_EQ(R.variant("greedy")->State, Status::Skipped);
  EXPECT_EQ(R.variant("greedy")->Note, "--skip-variants");
  EXPECT_EQ(R.variant("handwritten")->State, Status::Skipped);
  EXPECT_EQ(R.variant("sorting")->State, Status::Ok);
}

TEST_F(BenchPlanTest, FailuresBecomeClearErrors) {
  AppResult Missing = benchmarkApp("sw", O, P);
  EXPECT_NE(Missing.Error.find("bench-app-sw is not in " + O.AppDir), std::string::npos)
      << Missing.Error;

  install("check-fails");
  AppResult Wrong = benchmarkApp("sw", O, P);
  EXPECT_NE(Wrong.Error.find("bench-app-sw (baseline): exit 3: the result differs from the CPU "
                             "reference; stderr: output[3] = 7, CPU reference 8"),
            std::string::npos)
      << Wrong.Error;

  install("hangs");
  O.TimeoutSeconds = 1;
  AppResult Hung = benchmarkApp("sw", O, P);
  EXPECT_NE(Hung.Error.find("ran past its time limit of 1 s"), std::string::npos) << Hung.Error;
}

// A divopt without fit answers `fit --help` with its top-level help and exit
// 0; only fit's own usage counts.
TEST_F(BenchPlanTest, FitIsFoundByItsOwnUsage) {
  auto fakeDivopt = [&](const std::string &Usage) {
    std::string Path = (Dir / "divopt").string();
    std::ofstream(Path) << "#!/bin/sh\necho '" << Usage << "'\n";
    chmod(Path.c_str(), 0755);
    return Path;
  };
  EXPECT_FALSE(fitAvailable(fakeDivopt("Usage: divopt [OPTIONS] SUBCOMMAND")));
  EXPECT_TRUE(fitAvailable(fakeDivopt("Usage: divopt fit [OPTIONS] PROFILE...")));
  EXPECT_FALSE(fitAvailable((Dir / "no-such-divopt").string()));
}

TEST(BenchPlan, AppsJoinTheSuiteInFreezeGroupsOfFour) {
  // The twelve the model was built on, then four after each freeze.
  EXPECT_EQ(freezeGroup("mc"), 0u);
  EXPECT_EQ(freezeGroup("walk"), 0u);
  EXPECT_EQ(freezeGroup("kepler"), 1u);
  EXPECT_EQ(freezeGroup("md"), 1u);
  EXPECT_EQ(freezeGroup("binomial"), 2u);
  EXPECT_EQ(freezeGroup("rho"), 6u);
  EXPECT_EQ(freezeGroup("sph"), 7u);
  EXPECT_EQ(freezeGroup("isect"), 8u);
  EXPECT_EQ(freezeGroup("ssa"), 9u);
  EXPECT_EQ(freezeGroup("range"), 9u);
  EXPECT_EQ(freezeGroup("poisson"), 10u);
  EXPECT_EQ(freezeGroup("chain"), 10u);
  EXPECT_EQ(freezeGroup("nosuch"), std::nullopt);
  EXPECT_EQ(knownApps().size(), 12u + 4 * 8 + 8 + 4);
}

} // namespace
} // namespace divopt::bench
