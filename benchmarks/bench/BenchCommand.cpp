#include "BenchCommand.h"
#include "BenchPlan.h"
#include "BenchPlots.h"
#include "BenchPredict.h"
#include "BenchProcess.h"
#include "BenchProvenance.h"
#include "BenchReport.h"
#include "BenchResults.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <unistd.h>

namespace divopt {

namespace fs = std::filesystem;
using namespace bench;

namespace {

std::string joined(const std::vector<std::string> &Names) {
  std::string Out;
  for (const std::string &N : Names)
    Out += (Out.empty() ? "" : ", ") + N;
  return Out;
}

// CLI11 validator: each comma-separated item one of Names.
CLI::Validator oneOf(const std::vector<std::string> &Names, const std::string &What) {
  return CLI::Validator(
      [Names, What](std::string &Item) -> std::string {
        for (const std::string &N : Names)
          if (N == Item)
            return "";
        return "unknown " + What + " '" + Item + "' (known: " + joined(Names) + ")";
      },
      "", "");
}

void render(const std::string &Dir, const BenchResults &R) {
  fs::create_directories(Dir);
  std::string Report = (fs::path(Dir) / "report.md").string();
  std::ofstream Out(Report);
  writeMarkdownReport(Out, R);
  if (!Out.flush())
    throw std::runtime_error(Report + ": cannot write the report");
  writePlots(Dir, R);
}

int verdict(const BenchResults &R, const std::string &Dir) {
  unsigned Failures = R.failures(), Errors = R.errors();
  if (Failures == 0 && Errors == 0) {
    std::cerr << "divopt bench: every variant matched its baseline; report: "
              << (fs::path(Dir) / "report.md").string() << "\n";
    return 0;
  }
  bool Colour = isatty(STDERR_FILENO);
  std::cerr << "divopt: error: bench: " << (Colour ? "\033[1;31m" : "") << Failures
            << " variant(s) FAILED" << (Colour ? "\033[0m" : "")
            << " (checksum differs from the baseline's), " << Errors
            << " could not run; see " << (fs::path(Dir) / "report.md").string() << "\n";
  return 1;
}

// Each app's predictions again, from the profile its run kept in Profiles, on
// the machine the run's predictions assumed (SMs, occupancy).
void repredict(BenchResults &R, const std::string &Profiles) {
  if (!fs::is_directory(Profiles))
    throw std::runtime_error("--repredict " + Profiles + ": not a folder (give the --work-dir " +
                             "of the run that wrote the results)");
  unsigned Major = 9, Minor = 0;
  std::sscanf(R.Prov.ComputeCapability.c_str(), "%u.%u", &Major, &Minor);
  Progress P;
  for (AppResult &A : R.Apps) {
    fs::path Profile = fs::path(Profiles) / (A.App + ".divprof");
    if (A.Kernel.empty() || !fs::exists(Profile))
      continue;
    PredictionInputs In;
    In.Profile = Profile.string();
    In.Kernel = A.Kernel;
    In.Threads = A.Threads;
    In.ComputeCapability = Major * 10 + Minor;
    In.SMs = A.Predicted.SMs ? A.Predicted.SMs : R.Prov.SMs;
    if (A.Predicted.Present && A.Predicted.OccupancySource.rfind("sm_90 thread limit", 0) != 0) {
      In.Occupancy = A.Predicted.Occupancy;
      In.OccupancySource = A.Predicted.OccupancySource;
    }
    P.say(A.App, "predictions from " + In.Profile + " ...");
    try {
      A.Predicted = predictFromProfile(In);
      A.Notes.push_back("predictions recomputed from " + Profile.filename().string() +
                        " (divopt bench --repredict)");
    } catch (const std::exception &E) {
      A.Predicted = Prediction{};
      A.Predicted.Why = E.what();
    }
  }
}

int fromJson(const BenchOptions &O) {
  BenchResults R = readResults(O.FromJson);
  std::string Dir = O.Out.empty() ? fs::path(O.FromJson).parent_path().string() : O.Out;
  if (Dir.empty())
    Dir = ".";
  if (!O.Repredict.empty()) {
    repredict(R, O.Repredict);
    fs::create_directories(Dir);
    writeResults((fs::path(Dir) / "results.json").string(), R);
  }
  render(Dir, R);
  return verdict(R, Dir);
}

// The apps to run: those asked for, else every known app this build has.
std::vector<std::string> appsToRun(const BenchOptions &O, const std::string &AppDir) {
  if (!O.Apps.empty())
    return O.Apps;
  std::vector<std::string> Apps;
  for (const std::string &A : knownApps())
    if (fs::exists(appProgram(AppDir, A)))
      Apps.push_back(A);
  if (Apps.empty())
    throw std::runtime_error("no bench-app-* program in " + AppDir +
                             " (build the benchmark apps first: docs/bench.md)");
  return Apps;
}

// A folder for profiles and models, removed at the end unless the user named it.
class WorkDir {
public:
  explicit WorkDir(const std::string &Given) : Keep(!Given.empty()) {
    if (Keep) {
      Path = Given;
      fs::create_directories(Path);
      return;
    }
    std::string Template = (fs::temp_directory_path() / "divopt-bench-XXXXXX").string();
    if (!mkdtemp(Template.data()))
      throw std::runtime_error("cannot create a work folder under " +
                               fs::temp_directory_path().string());
    Path = Template;
  }
  ~WorkDir() {
    std::error_code E;
    if (!Keep)
      fs::remove_all(Path, E);
  }
  WorkDir(const WorkDir &) = delete;
  WorkDir &operator=(const WorkDir &) = delete;
  std::string Path;

private:
  bool Keep;
};

int measure(const BenchOptions &O) {
  GpuInfo Gpu = findGpu();
  if (!Gpu.Present)
    throw std::runtime_error("no CUDA GPU here (" + Gpu.Why +
                             "): divopt bench runs the apps on a GPU; "
                             "--from-json FILE renders saved results without one");
  PlanOptions Plan;
  Plan.AppDir = O.AppDir.empty() ? executableDirectory() : O.AppDir;
  Plan.Self = executablePath();
  std::vector<std::string> Apps = appsToRun(O, Plan.AppDir);
  WorkDir Work(O.WorkDir);
  Plan.WorkDir = Work.Path;
  Plan.Repeat = O.Repeat;
  Plan.SizeScale = O.SizeScale;
  Plan.Skip = {O.SkipVariants.begin(), O.SkipVariants.end()};
  Plan.TimeoutSeconds = O.TimeoutSeconds;
  Plan.Gpu = Gpu;
  Plan.FitAvailable = !Plan.Skip.count("model") && fitAvailable(Plan.Self);

  BenchResults R;
  R.Prov = collectProvenance(Gpu, O.Commit, O.Repeat, O.SizeScale);
  std::string Dir =
      O.Out.empty() ? (fs::path("benchmarks/results") / deviceFolder(Gpu.Name) / "bench").string()
                    : O.Out;
  Progress P;
  P.say("bench", Gpu.Name + ", apps: " + joined(Apps) + "; results to " + Dir);
  fs::create_directories(Dir);
  std::string Results = (fs::path(Dir) / "results.json").string();
  for (const std::string &App : Apps) {
    R.Apps.push_back(benchmarkApp(App, Plan, P));
    if (!R.Apps.back().Error.empty())
      P.say(App, "error: " + R.Apps.back().Error);
    // After every app: a run cut short (a time limit, ^C) keeps the apps it
    // finished, for --from-json.
    writeResults(Results, R);
  }
  render(Dir, R);
  return verdict(R, Dir);
}

} // namespace

CLI::App *addBenchCommand(CLI::App &App, BenchOptions &O) {
  CLI::App *Cmd = App.add_subcommand(
      "bench", "Run the benchmark apps under every variant; results, report and plots "
               "(docs/bench.md)");
  CLI::Option *Apps = Cmd->add_option("--apps", O.Apps,
                                      "Comma-separated apps (default: every one this build has): " +
                                          joined(knownApps()))
                          ->delimiter(',')
                          ->check(oneOf(knownApps(), "app"))
                          ->type_name("LIST");
  CLI::Option *Repeat = Cmd->add_option("--repeat", O.Repeat,
                                        "Timed launches per variant; baseline and online also "
                                        "time as many end to end (the issue's figure: 100)")
                            ->check(CLI::Range(1, 100000))
                            ->capture_default_str();
  Cmd->add_option("--out", O.Out,
                  "Folder for results.json, report.md and the plots (default: "
                  "benchmarks/results/<device>/bench; with --from-json, the file's folder)")
      ->type_name("DIR");
  CLI::Option *Scale =
      Cmd->add_option("--size-scale", O.SizeScale, "Multiply each app's default size by F")
          ->check(CLI::Range(1e-6, 1e6))
          ->type_name("F");
  CLI::Option *Skip = Cmd->add_option("--skip-variants", O.SkipVariants,
                                      "Comma-separated variants not to run: " +
                                          joined(skippableVariants()))
                          ->delimiter(',')
                          ->check(oneOf(skippableVariants(), "variant"))
                          ->type_name("LIST");
  CLI::Option *Commit =
      Cmd->add_option("--commit", O.Commit, "Commit to record (default: git rev-parse HEAD)")
          ->type_name("SHA");
  CLI::Option *Timeout =
      Cmd->add_option("--timeout", O.TimeoutSeconds, "Seconds one app run may take")
          ->check(CLI::Range(1.0, 86400.0))
          ->capture_default_str();
  CLI::Option *AppDir =
      Cmd->add_option("--app-dir", O.AppDir,
                      "Run the bench-app-* programs of this folder (default: beside divopt, "
                      "built with the plugin; bin/rewritten: built by nvcc from divopt "
                      "rewrite's output)")
          ->check(CLI::ExistingDirectory)
          ->type_name("DIR");
  CLI::Option *Work =
      Cmd->add_option("--work-dir", O.WorkDir,
                      "Keep profiles and models here (default: a temporary folder, removed)")
          ->type_name("DIR");
  CLI::Option *FromJson =
      Cmd->add_option("--from-json", O.FromJson,
                      "Render report.md and the plots from this results.json; runs nothing");
  Cmd->add_option("--repredict", O.Repredict,
                  "With --from-json: predict again, with this build's model, from the profiles "
                  "the run kept in DIR (its --work-dir); writes results.json to --out")
      ->needs(FromJson)
      ->type_name("DIR");
  FromJson->type_name("FILE")
      ->excludes(Apps)
      ->excludes(Repeat)
      ->excludes(Scale)
      ->excludes(Skip)
      ->excludes(Commit)
      ->excludes(Timeout)
      ->excludes(AppDir)
      ->excludes(Work);
  return Cmd;
}

int runBenchCommand(const BenchOptions &O) { return O.FromJson.empty() ? measure(O) : fromJson(O); }

} // namespace divopt
