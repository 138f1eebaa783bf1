// divopt: the command-line tool. Each subcommand lives in its own file; this
// one parses the command line and turns every failure into one error line.
//
// Exit codes: 0 success, 1 a command failed (unreadable profile, unknown
// kernel, ...), 2 a bad command line.
#include "analyze/AnalyzeCommand.h"
#include "BenchCommand.h"
#include "demo/DemoCommand.h"
#include "dump/DumpCommand.h"
#include "fit/FitCommand.h"
#include "imbalance/ImbalanceCommand.h"
#include "latency/LatencyCommand.h"
#include "report/ReportCommand.h"
#include "rewrite/RewriteCommand.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <new>

namespace {

const char *const Workflow =
    "divopt: find where control-flow divergence costs time in CUDA kernels.\n"
    "  1. divopt-clang++ -O2 -gline-tables-only app.cu -o app   # clang++ 22 + plugin + runtime\n"
    "  2. DIVOPT_MODE=profile ./app       # per-thread BBVs of each launch -> default.divprof\n"
    "  3. divopt report default.divprof   # divergent warps and branches, costliest blocks";

const char *const KernelHelp =
    "Only launches of this kernel: mangled, demangled, or as in source (loop, loop<float>)";

int fail(const std::string &Message) {
  std::cerr << "divopt: error: " << Message << '\n';
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  using namespace divopt;
  // divopt-rewrite parses its own command line: its compile flags follow "--".
  if (argc >= 2 && std::string(argv[1]) == "rewrite")
    return runRewriteCommand(argc - 2, argv + 2);
  CLI::App App(Workflow, "divopt");
  App.set_version_flag("--version", "divopt " DIVOPT_VERSION);
  App.require_subcommand(1);

  ReportOptions Report;
  CLI::App *ReportCmd = App.add_subcommand(
      "report", "Where divergence costs: per launch, warps, branches and ranked basic blocks");
  ReportCmd->add_option("PROFILE", Report.Profiles, "Profiles written by DIVOPT_MODE=profile")
      ->required();
  ReportCmd->add_option("--kernel", Report.Kernel, KernelHelp)->type_name("NAME");
  ReportCmd->add_flag("--json", Report.Json, "One JSON document with every number and block");
  ReportCmd->add_option("--top", Report.Top, "Basic blocks listed per launch (0: all)")
      ->type_name("N")
      ->capture_default_str();

  DumpOptions Dump;
  CLI::App *DumpCmd = App.add_subcommand("dump", "Per-thread BBVs of every launch as JSON");
  DumpCmd->add_option("PROFILE", Dump.Profile, "Profile written by DIVOPT_MODE=profile")
      ->required();
  DumpCmd->add_option("--kernel", Dump.Kernel, KernelHelp)->type_name("NAME");

  AnalyzeOptions Analyze;
  CLI::App *AnalyzeCmd = addAnalyzeCommand(App, Analyze);

  ImbalanceOptions Imbalance;
  CLI::App *ImbalanceCmd = addImbalanceCommand(App, Imbalance);

  LatencyOptions Latency;
  CLI::App *LatencyCmd = addLatencyCommand(App, Latency);

  BenchOptions Bench;
  CLI::App *BenchCmd = addBenchCommand(App, Bench);

  FitCommandOptions Fit;
  CLI::App *FitCmd = addFitCommand(App, Fit);

  DemoOptions Demo;
  CLI::App *DemoCmd =
      App.add_subcommand("demo", "Build, profile and report the example program end to end");
  DemoCmd->add_flag("--no-gpu", Demo.ForceNoGpu,
                    "show the no-GPU path even where a GPU is present");
  DemoCmd
      ->add_option("--work-dir", Demo.WorkDir,
                   "where to build the example (default: a new temp dir)")
      ->type_name("DIR");
  DemoCmd->add_flag("--keep", Demo.Keep, "keep the work dir afterwards");

  // Listed for --help; main() hands its arguments to divopt-rewrite above.
  App.add_subcommand("rewrite", "Source to source for nvcc: copies of each kernel divopt can "
                                "regroup, launches through divopt/launch.h (docs/rewrite.md)");

  try {
    App.parse(argc, argv);
  } catch (const CLI::ParseError &E) {
    // --help and --version arrive here too, with exit code 0.
    return App.exit(E) == 0 ? 0 : 2;
  }

  try {
    if (*ReportCmd)
      return runReportCommand(Report);
    if (*DumpCmd)
      return runDumpCommand(Dump);
    if (*AnalyzeCmd)
      return runAnalyzeCommand(Analyze);
    if (*ImbalanceCmd)
      return runImbalanceCommand(Imbalance);
    if (*LatencyCmd)
      return runLatencyCommand(Latency);
    if (*BenchCmd)
      return runBenchCommand(Bench);
    if (*FitCmd)
      return runFitCommand(Fit);
    return runDemoCommand(Demo);
  } catch (const std::bad_alloc &) {
    return fail("out of memory");
  } catch (const std::exception &E) {
    return fail(E.what());
  } catch (...) {
    return fail("unexpected internal error");
  }
}
