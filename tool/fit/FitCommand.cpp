#include "FitCommand.h"
#include "common/KernelFilter.h"
#include "common/TerminalProgress.h"
#include "divopt/ProfileFile.h"
#include "predict/FitKernel.h"
#include "predict/ModelCheck.h"
#include "predict/ModelFile.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>

namespace divopt {
namespace {

std::string number(double V) {
  if (!std::isfinite(V))
    return "-";
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.4g", V);
  return Buf;
}

// "1 + 2*trips[tid] - 0.5*[n > 4]"
std::string equation(const KernelModel &K, const BlockModel &B) {
  std::string Out;
  for (size_t I = 0; I < B.Terms.size(); ++I) {
    double C = B.Coefficients[I];
    if (C == 0)
      continue;
    std::string Name = K.termName(B.Terms[I]);
    std::string Mag = number(std::fabs(C));
    std::string Part = Name == "1" ? Mag : Mag + "*" + Name;
    if (Out.empty())
      Out = (C < 0 ? "-" : "") + Part;
    else
      Out += (C < 0 ? " - " : " + ") + Part;
  }
  return Out.empty() ? "0" : Out;
}

void printKernel(const KernelModel &K) {
  std::string Kernel = demangleKernel(K.Name);
  std::cout << "kernel " << Kernel << (Kernel == K.Name ? "" : " (" + K.Name + ")") << ": "
            << K.Launches << (K.Launches == 1 ? " launch" : " launches") << ", features:";
  for (unsigned F = 0; F < K.NumFeatures; ++F)
    std::cout << (F ? ", " : " ") << K.inputName(int(F));
  if (!K.NumFeatures)
    std::cout << " none";
  std::cout << '\n';
  for (const BlockModel &B : K.Blocks) {
    std::cout << "  block " << B.Block << ": ";
    if (!B.Predictable) {
      std::cout << "unpredictable: " << B.Why;
      if (!B.Matters)
        std::cout << " (ran " << number(B.Constant)
                  << " times in every profiled thread: predicted as that)";
      std::cout << '\n';
      continue;
    }
    std::cout << "count = " << equation(K, B) << '\n'
              << "    " << B.Stats.Observations << " observations, MSE " << number(B.Stats.Mse)
              << ", R^2 " << number(B.Stats.R2) << ", "
              << (B.Stats.HeldOutObservations
                      ? "held-out MSE " + number(B.Stats.HeldOutMse) + " on " +
                            std::to_string(B.Stats.HeldOutObservations) + " threads"
                      : std::string("no held-out threads"))
              << '\n';
    for (const DroppedTerm &D : B.Dropped)
      std::cout << "    dropped " << K.termName(D.T) << ": " << D.Why << '\n';
  }
  if (std::string Why = K.unusableBecause(); !Why.empty())
    std::cout << "  optimize mode cannot predict this kernel's BBVs: " << Why
              << "; it falls back to DIVOPT_PROFILE_USE or the original kernel\n";
}

// One line per kernel, "check: " first so that scripts (divopt bench) find it.
void printChecks(const BbvModelFile &Model, const std::vector<LaunchProfile> &Launches,
                 const std::vector<std::string> &Paths) {
  std::string From = Paths.size() == 1 ? Paths[0] : std::to_string(Paths.size()) + " profiles";
  std::map<std::string, std::vector<const LaunchProfile *>> ByKernel;
  for (const LaunchProfile &P : Launches)
    ByKernel[P.Header.Kernel].push_back(&P);
  for (const KernelModel &K : Model.Kernels) {
    std::cout << "check: kernel " << K.Name << " on " << From << ": ";
    ModelCheck C = checkModel(K, ByKernel[K.Name]);
    if (!C.Why.empty()) {
      std::cout << "cannot check: " << C.Why << '\n';
      continue;
    }
    std::cout << C.Launches << (C.Launches == 1 ? " launch, " : " launches, ") << C.Threads
              << " threads: mean absolute BBV error " << number(C.MeanAbsError)
              << " per block and thread (" << number(100 * C.RelativeError)
              << "% of the counts), " << number(100 * C.ExactThreads)
              << "% of threads predicted exactly\n";
  }
}

} // namespace

CLI::App *addFitCommand(CLI::App &App, FitCommandOptions &O) {
  CLI::App *Cmd = App.add_subcommand(
      "fit", "Fit per-block BBV models from profiled launches, for optimize mode (DIVOPT_MODEL)");
  Cmd->add_option("PROFILE", O.Profiles, "Profiles written by DIVOPT_MODE=profile")->required();
  Cmd->add_option("--kernel", O.Kernel, "Only this kernel (mangled, demangled or as in source)")
      ->type_name("NAME");
  Cmd->add_option("--out", O.Out, "Model file to write")->type_name("MODEL")->capture_default_str();
  Cmd->add_option("--train-blocks", O.TrainBlocks,
                  "Thread blocks of each launch to train on (the rest test the model)")
      ->type_name("N")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  CLI::Option *Json =
      Cmd->add_flag("--json", O.Json, "Print the model's JSON instead of the report");
  Cmd->add_option("--check", O.Check,
                  "Profile of another input: predict its launches from their feature values "
                  "and report the BBV error")
      ->type_name("PROFILE")
      ->excludes(Json);
  return Cmd;
}

int runFitCommand(const FitCommandOptions &O) {
  KernelFilter Filter(O.Kernel);
  std::vector<LaunchProfile> Launches;
  for (const std::string &Path : O.Profiles)
    for (LaunchProfile &P : readProfileFile(Path))
      if (Filter.accepts(P.Header.Kernel))
        Launches.push_back(std::move(P));
  Filter.requireMatch(O.Profiles.size() == 1 ? O.Profiles[0] : "the profiles");

  // Kernels in the order they were first launched.
  std::vector<std::string> Order;
  std::map<std::string, std::vector<const LaunchProfile *>> ByKernel;
  for (const LaunchProfile &P : Launches) {
    auto &List = ByKernel[P.Header.Kernel];
    if (List.empty())
      Order.push_back(P.Header.Kernel);
    List.push_back(&P);
  }
  // Read before fitting, so that a bad --check profile fails before any output.
  std::vector<LaunchProfile> Checked;
  for (const std::string &Path : O.Check)
    for (LaunchProfile &P : readProfileFile(Path))
      if (Filter.accepts(P.Header.Kernel))
        Checked.push_back(std::move(P));

  FitOptions Fit;
  Fit.TrainBlocks = O.TrainBlocks;
  BbvModelFile Model;
  {
    TerminalProgress Progress("fit", Order.size());
    for (const std::string &Kernel : Order) {
      Progress.step(Model.Kernels.size(), Kernel);
      Model.Kernels.push_back(fitKernel(ByKernel[Kernel], Fit));
    }
  }
  writeModelFile(Model, O.Out);

  if (O.Json) {
    std::cout << serializeModel(Model);
    return 0;
  }
  std::cout << "Fitted " << Model.Kernels.size() << (Model.Kernels.size() == 1 ? " kernel" : " kernels")
            << " from " << Launches.size() << (Launches.size() == 1 ? " launch" : " launches")
            << ", training on the first " << O.TrainBlocks
            << (O.TrainBlocks == 1 ? " thread block" : " thread blocks") << " of each\n";
  for (const KernelModel &K : Model.Kernels)
    printKernel(K);
  std::cout << "Model written to " << O.Out << " (optimize mode reads DIVOPT_MODEL, else "
            << "<executable>.divmodel next to the program)\n";
  if (!O.Check.empty())
    printChecks(Model, Checked, O.Check);
  return 0;
}

} // namespace divopt
