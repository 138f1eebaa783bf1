#include "BenchPlan.h"
#include "BenchAnalysis.h"
#include "BenchAppOutput.h"
#include "BenchPredict.h"
#include "BenchProcess.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>

namespace divopt::bench {

namespace fs = std::filesystem;

const std::vector<std::string> &knownApps() {
  // The twelve the model was first built on, then four added after each
  // of its first eight freezes, eight after its ninth and four after its
  // tenth (issue 16: its error on apps it has not seen).
  static const std::vector<std::string> Apps = {
      "mc",     "sw",     "nw",       "ec",     "mum",    "sl",     "sm",       "mandelbrot",
      "spmv",   "bfs",    "matpow",   "walk",   "kepler", "primes", "raymarch", "md",
      "binomial", "dfa",  "bvh",      "quad",   "join",   "tri",    "queens",   "rabin",
      "parse",    "knn",  "ode",      "pow",    "huff",   "ksort",  "bloom",    "bisect",
      "pip",      "spgemm", "jacobi",   "rho",
      "roots",    "sat",    "lz",       "sph",
      "flatten",  "tsp",    "lpm",      "isect",
      "ssa",      "ik",     "voxel",    "cdc",    "sudoku", "viterbi", "pull",    "range",
      "poisson",  "lm",     "ufind",    "chain"};
  return Apps;
}

std::optional<unsigned> freezeGroup(const std::string &App) {
  // Apps in each group, in knownApps' order: group 0 the model was first
  // built on, group n those added after its n-th freeze.
  static constexpr size_t GroupSizes[] = {12, 4, 4, 4, 4, 4, 4, 4, 4, 8, 4};
  const std::vector<std::string> &Apps = knownApps();
  auto It = std::find(Apps.begin(), Apps.end(), App);
  if (It == Apps.end())
    return std::nullopt;
  size_t Index = size_t(It - Apps.begin());
  unsigned Group = 0;
  for (size_t Size : GroupSizes) {
    if (Index < Size)
      return Group;
    Index -= Size;
    ++Group;
  }
  return Group - 1; // apps past the table join the last freeze's
}

void Progress::say(const std::string &App, const std::string &What) const {
  double S = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  char Stamp[32];
  std::snprintf(Stamp, sizeof Stamp, "[%7.1f s] ", S);
  std::cerr << Stamp << App << ": " << What << std::endl;
}

std::string appProgram(const std::string &AppDir, const std::string &App) {
  return (fs::path(AppDir) / ("bench-app-" + App)).string();
}

// `divopt fit --help` exits 0 even in a build without fit (the top-level
// help answers), so look for fit's own usage line.
bool fitAvailable(const std::string &Self) {
  try {
    ProcessResult Help = runProcess({Self, {"fit", "--help"}, {}, 30});
    return Help.ok() && Help.Stdout.find(" fit [OPTIONS]") != std::string::npos;
  } catch (const std::exception &) {
    return false;
  }
}

namespace {

using Env = std::vector<std::pair<std::string, std::string>>;

// A run that did not produce a usable JSON line.
struct RunError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string exitMeaning(int Code) {
  switch (Code) {
  case 2:
    return "exit 2: bad command line";
  case 3:
    return "exit 3: the result differs from the CPU reference";
  case 127:
    return "exit 127: could not be executed";
  default:
    return "exit " + std::to_string(Code);
  }
}

struct AppRun {
  AppOutput Output;
  std::string Stderr;
  std::string Command;
};

class AppRunner {
public:
  AppRunner(const std::string &App, const PlanOptions &O, const Progress &P)
      : App(App), O(O), P(P), Program(appProgram(O.AppDir, App)) {}

  std::vector<std::string> SizeArgs; // "--size N" once known

  AppRun run(const std::string &Label, const Env &E, std::vector<std::string> Args) const {
    Args.insert(Args.end(), SizeArgs.begin(), SizeArgs.end());
    Args.push_back("--quiet");
    ProcessSpec Spec{Program, Args, E, O.TimeoutSeconds};
    std::string Command = commandLine(Spec);
    P.say(App, Label + " ...");
    ProcessResult R = runProcess(Spec);
    std::string Tail = lastLines(R.Stderr, 6);
    std::string Where = "bench-app-" + App + " (" + Label + ")";
    if (R.TimedOut)
      throw RunError(Where + " ran past its time limit of " +
                     std::to_string(int(O.TimeoutSeconds)) + " s (--timeout)");
    if (R.Signal)
      throw RunError(Where + " was killed by signal " + std::to_string(R.Signal) +
                     (Tail.empty() ? "" : "; its last words: " + Tail));
    if (!R.ok())
      throw RunError(Where + ": " + exitMeaning(R.ExitCode) +
                     (Tail.empty() ? "" : "; stderr: " + Tail));
    AppRun Run{parseAppOutput(App, R.Stdout), R.Stderr, Command};
    char Took[160], EndToEnd[64] = "";
    if (Run.Output.EndToEndMs)
      std::snprintf(EndToEnd, sizeof EndToEnd, ", end to end %.3f ms", *Run.Output.EndToEndMs);
    std::snprintf(Took, sizeof Took, "median %.4f ms of %zu launches%s (%.1f s)",
                  summarizeTimes(Run.Output.TimesMs).Median, Run.Output.TimesMs.size(),
                  EndToEnd, R.Seconds);
    P.say(App, Label + ": " + Took);
    return Run;
  }

  std::vector<std::string> timed(const char *Variant, int Seed = 1) const {
    return {"--variant", Variant, "--repeat", std::to_string(O.Repeat), "--seed",
            std::to_string(Seed)};
  }

  // The same, with the first --repeat launches also timed end to end.
  std::vector<std::string> timedEndToEnd(const char *Variant) const {
    std::vector<std::string> Args = timed(Variant);
    Args.push_back("--end-to-end");
    return Args;
  }

  // A DIVOPT_MODE=profile run of Seed into Path.
  void profile(const std::string &Label, const std::string &Path, int Seed) const {
    fs::remove(Path);
    run(Label, {{"DIVOPT_MODE", "profile"}, {"DIVOPT_PROFILE_FILE", Path}},
        {"--variant", "original", "--repeat", "1", "--seed", std::to_string(Seed)});
    if (!fs::exists(Path))
      throw RunError("bench-app-" + App + " (" + Label + ") wrote no profile to " + Path +
                     " (was it compiled with the divopt plugin?)");
  }

private:
  const std::string &App;
  const PlanOptions &O;
  const Progress &P;
  std::string Program;
};

VariantResult measured(const std::string &Name, const AppRun &Run, const std::string &Baseline) {
  VariantResult V;
  V.Name = Name;
  V.TimesMs = Run.Output.TimesMs;
  V.Checksum = Run.Output.Checksum;
  V.Command = Run.Command;
  V.EndToEndMs = Run.Output.EndToEndMs;
  if (V.Checksum != Baseline) {
    V.State = Status::Fail;
    V.Note = "checksum " + V.Checksum + " differs from the baseline's " + Baseline;
  }
  return V;
}

VariantResult failed(const std::string &Name, Status S, const std::string &Why) {
  VariantResult V;
  V.Name = Name;
  V.State = S;
  V.Note = Why;
  return V;
}

// The runtime's decision for the timed kernel: overhead and what it did.
std::optional<RuntimeDecision> takeDecision(VariantResult &V, const AppRun &Run,
                                            const std::string &Kernel) {
  auto D = decisionFor(parseRuntimeDecisions(Run.Stderr), Kernel);
  std::string Prefix = V.State == Status::Fail ? V.Note + "; " : "";
  if (!D) {
    // With a profile and auto the runtime decides online, on the GPU, and
    // says so in its own line (docs/online.md).
    std::string Online = "divopt: online " + Kernel + " ";
    if (size_t At = Run.Stderr.find(Online); At != std::string::npos) {
      std::string Line = Run.Stderr.substr(At, Run.Stderr.find('\n', At) - At);
      V.Regrouped = Line.find(": regrouping;") != std::string::npos;
      V.Note = Prefix + (V.Regrouped ? "regrouped" : "not regrouped") +
               " online, on the GPU, from the profile's costs; its guard's trials are in the "
               "timed launches' warm-ups";
      return D;
    }
    V.Note = Prefix + "the runtime printed no decision for the kernel: it ran the original "
                      "(no redirected clone? see -Rpass-missed=divopt)";
    return D;
  }
  V.OverheadMs = D->DecidedMs;
  V.Regrouped = D->Regrouped;
  V.Note = Prefix + (D->Regrouped ? "regrouped: " : "not regrouped: ") + D->Why;
  return D;
}

class Plan {
public:
  Plan(const std::string &App, const PlanOptions &O, const Progress &P)
      : O(O), P(P), Runner(App, O, P) {
    R.App = App;
  }

  AppResult run() {
    if (!fs::exists(appProgram(O.AppDir, R.App))) {
      R.Error = "bench-app-" + R.App + " is not in " + O.AppDir + " (build it: ninja bench-app-" +
                R.App + ")";
      return R;
    }
    try {
      baseline();
    } catch (const std::exception &E) {
      R.Error = E.what();
      return R;
    }
    std::string Profile = (fs::path(O.WorkDir) / (R.App + ".divprof")).string();
    std::string ProfileProblem;
    try {
      Runner.profile("profile", Profile, 1);
    } catch (const std::exception &E) {
      ProfileProblem = E.what();
    }
    for (const std::string &Algo : {"sorting", "greedy", "greedy-max", "auto"})
      add(Algo, [&] {
        if (!ProfileProblem.empty())
          return failed(Algo, Status::Error, "no profile: " + ProfileProblem);
        return optimized(Algo, {{"DIVOPT_PROFILE_USE", Profile}, {"DIVOPT_ALGORITHM", Algo}});
      });
    add("model", [&] { return model(ProfileProblem.empty() ? Profile : ""); });
    add("online", [&] { return online(); });
    add("handwritten", [&] { return handwritten(); });
    add("oracle", [&] { return deriveOracle(R); });
    if (ProfileProblem.empty())
      predict(Profile);
    else
      R.Predicted.Why = "no profile: " + ProfileProblem;
    return R;
  }

private:
  const PlanOptions &O;
  const Progress &P;
  AppRunner Runner;
  AppResult R;
  std::string BaselineChecksum;
  std::optional<RuntimeDecision> Machine; // the first decision that named SMs x blocks
  std::string MachineFrom;

  template <typename Measure> void add(const std::string &Name, Measure M) {
    if (O.Skip.count(Name)) {
      R.Variants.push_back(failed(Name, Status::Skipped, "--skip-variants"));
      return;
    }
    try {
      R.Variants.push_back(M());
    } catch (const std::exception &E) {
      R.Variants.push_back(failed(Name, Status::Error, E.what()));
    }
    const VariantResult &V = R.Variants.back();
    if (V.State == Status::Fail)
      P.say(R.App, Name + ": FAIL: " + V.Note);
    else if (V.State == Status::Error || V.State == Status::Skipped)
      P.say(R.App, Name + ": " + statusName(V.State) + ": " + V.Note);
  }

  void baseline() {
    if (O.SizeScale != 1) {
      AppRun Probe = Runner.run("default size", {{"DIVOPT_MODE", "off"}},
                                {"--variant", "original", "--repeat", "1"});
      double Scaled = std::llround(double(Probe.Output.Size) * O.SizeScale);
      Runner.SizeArgs = {"--size", std::to_string(uint64_t(std::max(1.0, Scaled)))};
    }
    std::vector<std::string> Args = Runner.timedEndToEnd("original");
    Args.push_back("--check");
    AppRun Run = Runner.run("baseline", {{"DIVOPT_MODE", "off"}}, Args);
    if (Run.Output.Check != "pass")
      throw RunError("bench-app-" + R.App + " (baseline) reported check \"" + Run.Output.Check +
                     "\" although --check was given");
    const AppOutput &Out = Run.Output;
    R.Kernel = Out.Kernel;
    R.ComputeBound = Out.ComputeBound;
    R.Threads = Out.Threads;
    R.Size = Out.Size;
    R.Seed = Out.Seed;
    BaselineChecksum = Out.Checksum;
    VariantResult V = measured("baseline", Run, BaselineChecksum);
    V.Note = "CPU check passed";
    R.Variants.push_back(V);
  }

  VariantResult optimized(const std::string &Name, Env Extra, int Seed = 1) {
    Env E = {{"DIVOPT_MODE", "optimize"}, {"DIVOPT_VERBOSE", "1"}};
    E.insert(E.end(), Extra.begin(), Extra.end());
    AppRun Run = Runner.run(Name, E, Runner.timed("original", Seed));
    VariantResult V = measured(Name, Run, BaselineChecksum);
    auto D = takeDecision(V, Run, R.Kernel);
    if (D && D->Occupancy && !Machine) {
      Machine = D;
      MachineFrom = Name;
    }
    return V;
  }

  // Optimize mode on its own: no profile (the harness passes no DIVOPT_* but
  // its own) and no model (DIVOPT_MODEL=none: not even <app>.divmodel beside
  // the program), so the runtime decides on the GPU. Its overhead shows only
  // end to end; its stderr holds the runtime's summary, kept raw.
  VariantResult online() {
    Env E = {{"DIVOPT_MODE", "optimize"}, {"DIVOPT_MODEL", "none"}, {"DIVOPT_VERBOSE", "1"}};
    AppRun Run = Runner.run("online", E, Runner.timedEndToEnd("original"));
    VariantResult V = measured("online", Run, BaselineChecksum);
    V.Stderr = Run.Stderr.size() > MaxKeptStderr
                   ? Run.Stderr.substr(Run.Stderr.size() - MaxKeptStderr)
                   : Run.Stderr;
    if (!V.EndToEndMs)
      V.Note = (V.State == Status::Fail ? V.Note + "; " : "") +
               "the app printed no end_to_end_ms although --end-to-end was given";
    else if (V.State == Status::Ok)
      V.Note = "decided by the runtime on the GPU (no profile, no model); its overhead is in the "
               "end-to-end time; its stderr is kept in results.json";
    return V;
  }

  VariantResult handwritten() {
    AppRun Run = Runner.run("handwritten", {{"DIVOPT_MODE", "off"}}, Runner.timed("handwritten"));
    VariantResult V = measured("handwritten", Run, BaselineChecksum);
    V.OverheadMs = Run.Output.RegroupMs;
    V.Regrouped = true;
    if (V.State == Status::Ok)
      V.Note = "work key, CUB sort and upload: regroup_ms";
    return V;
  }

  // Train on the profile of another seed, run seed 1 guided by the model.
  // Exact: seed 1's profile (empty when there is none), against which the
  // model's predicted BBVs are checked.
  VariantResult model(const std::string &Exact) {
    if (!O.FitAvailable)
      return failed("model", Status::Skipped, "divopt fit is not in this build");
    std::string Training = (fs::path(O.WorkDir) / (R.App + "-seed2.divprof")).string();
    std::string Model = (fs::path(O.WorkDir) / (R.App + ".divmodel")).string();
    Runner.profile("model: profile seed 2", Training, 2);
    P.say(R.App, "model: divopt fit ...");
    std::vector<std::string> FitArgs = {"fit", Training, "--out", Model};
    if (!Exact.empty())
      FitArgs.insert(FitArgs.end(), {"--check", Exact});
    ProcessResult Fit = runProcess({O.Self, FitArgs, {}, O.TimeoutSeconds});
    if (!Fit.ok())
      return failed("model", Status::Skipped,
                    "divopt fit failed (" +
                        (Fit.TimedOut ? std::string("timed out") : exitMeaning(Fit.ExitCode)) +
                        "): " + lastLines(Fit.Stderr, 3));
    VariantResult V = optimized("model", {{"DIVOPT_MODEL", Model}, {"DIVOPT_ALGORITHM", "auto"}});
    V.PredictionCheck = predictionCheckFor(Fit.Stdout, R.Kernel);
    return V;
  }

  // With the machine the runtime's model used, when a run printed it.
  void predict(const std::string &Profile) {
    PredictionInputs In;
    In.Profile = Profile;
    In.Kernel = R.Kernel;
    In.Threads = R.Threads;
    In.ComputeCapability = O.Gpu.ComputeCapability;
    In.SMs = O.Gpu.SMs;
    if (Machine) {
      In.SMs = Machine->SMs;
      In.Occupancy = Machine->Occupancy;
      In.OccupancySource =
          "the runtime's occupancy calculator (DIVOPT_VERBOSE line of " + MachineFrom + ")";
    }
    try {
      P.say(R.App, "predictions ...");
      R.Predicted = predictFromProfile(In);
    } catch (const std::exception &E) {
      R.Predicted.Present = false;
      R.Predicted.Why = E.what();
      R.Notes.push_back("no predictions: " + std::string(E.what()));
    }
  }
};

} // namespace

AppResult benchmarkApp(const std::string &App, const PlanOptions &O, const Progress &P) {
  return Plan(App, O, P).run();
}

} // namespace divopt::bench
