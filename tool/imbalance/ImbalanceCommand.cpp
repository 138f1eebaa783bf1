#include "ImbalanceCommand.h"
#include "common/JsonOutput.h"
#include "common/TerminalProgress.h"
#include "common/TextFormat.h"
#include "common/TextTable.h"
#include "imbalance/DistributionSpec.h"
#include "imbalance/ImbalanceModel.h"
#include "imbalance/LossPlot.h"
#include "imbalance/MonteCarlo.h"
#include "imbalance/NumberFormat.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <stdexcept>

namespace divopt {
using namespace imbalance;
using nlohmann::json;

CLI::App *addImbalanceCommand(CLI::App &App, ImbalanceOptions &Options) {
  CLI::App *Cmd = App.add_subcommand(
      "imbalance", "Loss to thread imbalance for a distribution of per-thread trip counts");
  Cmd->add_option("DIST", Options.Distribution,
                  "binomial:N,P  geometric:P (1, 2, ...)  poisson:LAMBDA  uniform:A,B  "
                  "negbinomial:R,P (failures)  empirical:FILE (docs/imbalance.md)")
      ->required();
  Cmd->add_option("--n", Options.GroupSizes, "Group sizes (threads in lockstep), 1..1024")
      ->delimiter(',')
      ->type_name("N,...")
      ->capture_default_str();
  Cmd->add_option("--epsilon", Options.Epsilon, "Tail mass cut off infinite supports")
      ->type_name("E")
      ->capture_default_str();
  Cmd->add_option("--monte-carlo", Options.MonteCarloGroups,
                  "Also simulate this many groups per n (MT19937) and compare")
      ->type_name("SAMPLES");
  Cmd->add_option("--seed", Options.Seed, "Seed of the simulation")
      ->type_name("S")
      ->capture_default_str();
  CLI::Option *Json =
      Cmd->add_flag("--json", Options.Json, "One JSON document with every statistic");
  // The pmf can have hundreds of thousands of outcomes per n (docs/imbalance.md).
  Cmd->add_flag("--pmf", Options.Pmf, "With --json: every outcome's probability too")
      ->needs(Json);
  Cmd->add_option("--plot", Options.Plot, "Write an SVG of the pmf per n")->type_name("FILE.svg");
  return Cmd;
}

namespace {

struct GroupResult {
  unsigned N;
  LossDistribution Model;
  std::optional<Bins> PlotBins;
  std::optional<SimulationResult> Simulated;
};

// What runImbalanceCommand works with, once the text options are checked.
struct Settings {
  std::vector<unsigned> GroupSizes;
  double Epsilon = 0;
  uint64_t MonteCarloGroups = 0; // 0: no simulation
  uint64_t Seed = 0;
};

// A decimal integer in Min..Max, the whole of Text.
bool parseInteger(const std::string &Text, uint64_t Min, uint64_t Max, uint64_t &Out) {
  const char *End = Text.data() + Text.size();
  auto [Ptr, Ec] = std::from_chars(Text.data(), End, Out);
  return Ec == std::errc() && Ptr == End && Out >= Min && Out <= Max;
}

Settings checkOptions(const ImbalanceOptions &Options) {
  Settings S;
  for (const std::string &Text : Options.GroupSizes) {
    uint64_t N = 0;
    if (!parseInteger(Text, 1, MaxGroupSize, N))
      throw std::invalid_argument("--n: group sizes must be integers in 1.." +
                                  std::to_string(MaxGroupSize) + ", got '" + Text + "'");
    S.GroupSizes.push_back(unsigned(N));
  }
  char *End = nullptr;
  S.Epsilon = std::strtod(Options.Epsilon.c_str(), &End);
  if (Options.Epsilon.empty() || *End != '\0')
    throw std::invalid_argument("--epsilon: '" + Options.Epsilon + "' is not a number");
  if (!Options.MonteCarloGroups.empty() &&
      !parseInteger(Options.MonteCarloGroups, 1, UINT64_MAX, S.MonteCarloGroups))
    throw std::invalid_argument("--monte-carlo: SAMPLES must be a positive integer, got '" +
                                Options.MonteCarloGroups + "'");
  if (!parseInteger(Options.Seed, 0, UINT64_MAX, S.Seed))
    throw std::invalid_argument("--seed: S must be a non-negative integer, got '" + Options.Seed +
                                "'");
  return S;
}

double relativeError(const GroupResult &G) {
  return std::fabs(G.Simulated->Mean - G.Model.mean()) / G.Model.mean();
}

// P(some draw of a group lies beyond the cut): what truncation hides per group.
double truncatedGroupMass(const WorkDistribution &W, unsigned N) {
  return -std::expm1(double(N) * std::log1p(-W.TruncatedMass));
}

void printText(std::ostream &OS, const WorkDistribution &W, const Settings &S,
               const ImbalanceOptions &Options, const std::vector<GroupResult> &Groups) {
  OS << "work W      " << W.Description << ": values " << W.Lo << ".." << W.hi() << ", mean "
     << fixed(W.mean()) << ", sd " << fixed(std::sqrt(W.variance())) << '\n';
  if (W.TruncatedMass > 0)
    OS << "truncation  " << fixed(W.TruncatedMass, "%.3g") << " of the mass lies above " << W.hi()
       << " (epsilon " << formatNumber(S.Epsilon) << "): cut off, the rest renormalized\n";
  OS << "loss X      n max / sum: a group's SIMT cost over its MIMD cost (1: no loss)\n";
  if (S.MonteCarloGroups)
    OS << "simulated   " << S.MonteCarloGroups << " groups per n, MT19937 seed " << S.Seed << '\n';
  OS << '\n';

  using A = TextTable::Align;
  std::vector<TextTable::Column> Columns{
      {"n", A::Right},   {"mean loss", A::Right}, {"sd", A::Right},      {"median", A::Right},
      {"p90", A::Right}, {"p99", A::Right},       {"outcomes", A::Right}};
  if (S.MonteCarloGroups)
    for (const char *Title : {"simulated", "+-", "rel. error"})
      Columns.push_back({Title, A::Right});
  TextTable Table(Columns);
  for (const GroupResult &G : Groups) {
    const LossDistribution &L = G.Model;
    std::vector<std::string> Row{std::to_string(G.N),
                                 fixed(L.mean()),
                                 fixed(std::sqrt(L.variance())),
                                 fixed(L.quantile(0.5)),
                                 fixed(L.quantile(0.9)),
                                 fixed(L.quantile(0.99)),
                                 std::to_string(L.outcomes().size())};
    if (G.Simulated) {
      Row.push_back(fixed(G.Simulated->Mean));
      Row.push_back(fixed(G.Simulated->standardError()));
      Row.push_back(fixed(100 * relativeError(G), "%.3f%%"));
    }
    Table.addRow(std::move(Row));
  }
  Table.print(OS, "");

  // Only where it happens: with 0 in the support and a mass a double can hold.
  if (std::any_of(Groups.begin(), Groups.end(),
                  [](const GroupResult &G) { return G.Model.zeroSumMass() > 0; })) {
    OS << "\ngroups whose work is all zero count as no loss (X = 1); their probability:";
    for (const GroupResult &G : Groups)
      OS << (&G == &Groups.front() ? " " : ", ") << "n=" << G.N << ' '
         << fixed(G.Model.zeroSumMass(), "%.3g");
    OS << '\n';
  }
  if (!Options.Plot.empty())
    OS << "\nplot written to " << Options.Plot << '\n';
}

json toJson(const WorkDistribution &W, const Settings &S, const ImbalanceOptions &Options,
            const std::vector<GroupResult> &Groups) {
  json Out;
  Out["distribution"] = {{"spec", Options.Distribution},      {"description", W.Description},
                         {"support", {W.Lo, W.hi()}},         {"epsilon", S.Epsilon},
                         {"truncated_mass", W.TruncatedMass}, {"mean", W.mean()},
                         {"variance", W.variance()}};
  json List = json::array();
  for (const GroupResult &G : Groups) {
    const LossDistribution &L = G.Model;
    json Entry = {
        {"n", G.N},
        {"mean", L.mean()},
        {"variance", L.variance()},
        {"quantiles",
         {{"0.5", L.quantile(0.5)}, {"0.9", L.quantile(0.9)}, {"0.99", L.quantile(0.99)}}},
        {"zero_sum_mass", L.zeroSumMass()},
        {"truncated_group_mass", truncatedGroupMass(W, G.N)},
        {"outcomes", L.outcomes().size()}};
    if (Options.Pmf) {
      json Pmf = json::array();
      for (const LossOutcome &O : L.outcomes())
        Pmf.push_back({O.Num, O.Den, O.P});
      Entry["pmf"] = std::move(Pmf);
    }
    if (G.Simulated)
      Entry["monte_carlo"] = {{"groups", G.Simulated->Groups},
                              {"seed", S.Seed},
                              {"mean", G.Simulated->Mean},
                              {"variance", G.Simulated->Variance},
                              {"standard_error", G.Simulated->standardError()},
                              {"zero_sum_groups", G.Simulated->ZeroSumGroups},
                              {"relative_error", relativeError(G)}};
    List.push_back(std::move(Entry));
  }
  Out["groups"] = std::move(List);
  return Out;
}

void writePlot(std::ostream &OS, const WorkDistribution &W,
               const std::vector<GroupResult> &Groups) {
  std::vector<LossPlotPanel> Panels;
  for (const GroupResult &G : Groups) {
    LossPlotPanel P;
    P.N = G.N;
    P.Range = *G.PlotBins;
    P.Model = binPmf(G.Model, P.Range);
    P.ModelMean = G.Model.mean();
    if (G.Simulated) {
      for (uint64_t Count : G.Simulated->Histogram)
        P.Simulated.push_back(double(Count) / double(G.Simulated->Groups));
      P.SimulatedMean = G.Simulated->Mean;
    }
    Panels.push_back(std::move(P));
  }
  writeLossPlotSvg(OS, "Loss to thread imbalance, W = " + W.Description, Panels);
}

} // namespace

int runImbalanceCommand(const ImbalanceOptions &Options) {
  Settings S = checkOptions(Options);
  WorkDistribution W = parseDistribution(Options.Distribution, S.Epsilon);
  // Opened first: an unwritable path fails before minutes of work.
  std::ofstream PlotFile;
  if (!Options.Plot.empty()) {
    PlotFile.open(Options.Plot);
    if (!PlotFile)
      throw std::runtime_error(Options.Plot + ": cannot write plot (" + std::strerror(errno) + ")");
  }

  std::vector<GroupResult> Groups;
  {
    TerminalProgress Progress("imbalance", S.GroupSizes.size());
    for (unsigned N : S.GroupSizes) {
      std::string Step = "n=" + std::to_string(N);
      Progress.step(Groups.size(), Step + ": model");
      GroupResult G{N, modelImbalance(W, N), std::nullopt, std::nullopt};
      if (!Options.Plot.empty())
        G.PlotBins = binsFor(G.Model);
      if (S.MonteCarloGroups) {
        Progress.step(Groups.size(), Step + ": simulating " + std::to_string(S.MonteCarloGroups) +
                                         " groups");
        G.Simulated = simulateImbalance(W, N, S.MonteCarloGroups, S.Seed,
                                        G.PlotBins ? &*G.PlotBins : nullptr);
      }
      Groups.push_back(std::move(G));
    }
  }

  if (!Options.Plot.empty()) {
    writePlot(PlotFile, W, Groups);
    PlotFile.close();
    if (!PlotFile)
      throw std::runtime_error(Options.Plot + ": write failed");
  }
  if (Options.Json)
    std::cout << jsonText(toJson(W, S, Options, Groups)) << '\n';
  else
    printText(std::cout, W, S, Options, Groups);
  return 0;
}

} // namespace divopt
