#include "AnalyzeCommand.h"
#include "AnalyzeReport.h"
#include "common/KernelFilter.h"
#include "common/TerminalProgress.h"
#include "CsvBbv.h"
#include "latency/BlockPricing.h"
#include "latency/BuiltinLatencyTables.h"
#include "latency/UnitLatencyTable.h"
#include "profile/DivergenceStats.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <stdexcept>

namespace divopt {

namespace {

// sm_90's limits per SM: the occupancy when nothing else is known. Offline,
// registers and shared memory per block are not known, so this is an upper
// bound; --occupancy gives the CUDA occupancy calculator's answer.
constexpr uint32_t MaxThreadsPerSm = 2048;
constexpr uint32_t MaxBlocksPerSm = 32;

uint32_t threadLimitedOccupancy(uint32_t BlockSize) {
  return std::clamp<uint32_t>(MaxThreadsPerSm / BlockSize, 1, MaxBlocksPerSm);
}

std::string groupSizeCheck(const std::string &Text) {
  unsigned long V = 0;
  try {
    V = std::stoul(Text);
  } catch (const std::exception &) {
    return "not a number: " + Text;
  }
  return V && V % 32 == 0 && V <= 1u << 20 ? "" : "must be a positive multiple of 32";
}

struct Inputs {
  const AnalyzeOptions &Options;
  const std::vector<Algorithm> &Algorithms;
  const LatencyTable &Table;
};

void addGuesses(std::vector<std::string> &Out, const std::vector<std::string> &New) {
  for (const std::string &W : New)
    if (std::find(Out.begin(), Out.end(), W) == Out.end())
      Out.push_back(W);
}

// TidAccesses: per block, the accesses regrouping scatters (from the notes;
// empty for CSV input, which has none).
// Kernel: the launch's notes (a profile), for the SM-pipes estimate; null
// for BBVs from a CSV.
LaunchAnalysis analyzeBbvs(const Inputs &In, BbvView Bbv, std::vector<double> Lat,
                           uint32_t BlockSize, const std::vector<unsigned> &TidAccesses,
                           std::vector<double> Instructions, const KernelNote *Kernel,
                           AnalyzeReport &Report) {
  const AnalyzeOptions &O = In.Options;
  LaunchAnalysis L;
  L.Threads = Bbv.Threads;
  L.BasicBlocks = Bbv.Blocks;
  L.BlockSize = BlockSize;
  L.GroupSize = O.GroupSize;
  L.OccupancyGiven = O.Occupancy != 0;
  L.Gpu = {O.SMs, O.Occupancy ? O.Occupancy : threadLimitedOccupancy(BlockSize)};
  L.Price = priceRedirection(In.Table, TidAccesses);
  for (const std::string &Key : L.Price.Guessed)
    addGuesses(Report.Guessed, {"the redirection price uses key '" + Key + "', which " +
                                In.Table.Origin + " does not list (docs/model.md)"});
  RegroupRequest R;
  R.Bbv = Bbv;
  R.BlockSize = BlockSize;
  R.BlockLatency = Lat;
  R.BlockInstructions = std::move(Instructions); // none in a CSV: the scheduled estimate decides
  if (Kernel)
    addPipeInputs(R, *Kernel, In.Table);
  R.Gpu = L.Gpu;
  R.GroupSize = O.GroupSize;
  R.Price = L.Price;
  R.Algorithms = In.Algorithms;
  R.MaxGreedyClasses = 0; // offline, seconds are affordable
  L.MinImprovement = R.MinImprovement;
  L.BlockLatency = std::move(Lat);
  L.Decision = chooseRegrouping(R);
  return L;
}

void emitRedirect(const std::string &Dir, const LaunchAnalysis &L) {
  std::filesystem::create_directories(Dir);
  for (const AlgorithmOutcome &O : L.Decision.Outcomes) {
    std::string Path = (std::filesystem::path(Dir) / (algorithmKey(O.Algo) + ".txt")).string();
    std::ofstream Out(Path);
    for (uint32_t Logical : O.D)
      Out << Logical << '\n';
    if (!Out.flush())
      throw std::runtime_error(Path + ": cannot write the redirection array");
  }
}

void analyzeCsv(const Inputs &In, AnalyzeReport &Report) {
  const AnalyzeOptions &O = In.Options;
  CsvBbv Csv = readBbvCsv(O.BbvCsv);
  std::vector<double> Lat = readBlockLatencyCsv(O.BlockLatencyCsv, Csv.Blocks, O.BbvCsv);
  LaunchAnalysis L =
      analyzeBbvs(In, {Csv.Counts.data(), Csv.Threads, Csv.Blocks}, Lat, O.BlockSize, {}, {},
                  nullptr, Report);
  L.BbvSource = O.BbvCsv;
  if (!O.EmitRedirect.empty())
    emitRedirect(O.EmitRedirect, L);
  Report.Launches.push_back(std::move(L));
}

void analyzeProfile(const Inputs &In, AnalyzeReport &Report) {
  const AnalyzeOptions &O = In.Options;
  KernelFilter Filter(O.Kernel);
  std::vector<LaunchProfile> Launches = readProfileFile(O.Profile);
  TerminalProgress Progress("analyze", Launches.size());
  for (const LaunchProfile &P : Launches) {
    if (!Filter.accepts(P.Header.Kernel))
      continue;
    Progress.step(size_t(&P - Launches.data()), P.Header.Kernel);
    if (P.Header.threads() > std::numeric_limits<uint32_t>::max())
      throw std::runtime_error(O.Profile + ": a launch of " + P.Header.Kernel +
                               " has more threads than a redirection array can index (2^32)");
    BlockLatencies Lat = priceBlocks(P.Kernel, In.Table);
    for (const GuessedKey &G : Lat.Guessed)
      addGuesses(Report.Guessed, {G.warning(In.Table)});
    BbvView Bbv{P.Counts.data(), uint32_t(P.Header.threads()), uint32_t(P.Kernel.Blocks.size())};
    LaunchAnalysis L = analyzeBbvs(In, Bbv, std::move(Lat.Cycles),
                                   uint32_t(P.Header.threadsPerBlock()),
                                   tidAccessesPerBlock(P.Kernel), instructionsPerBlock(P.Kernel),
                                   &P.Kernel, Report);
    LaunchStats S = computeLaunchStats(P);
    L.Branches = MeasuredBranches{S.DivergentBranches, S.BranchExecutions, S.BranchCountedBlocks,
                                  S.ThreadBlocks};
    L.Header = P.Header;
    L.Kernel = P.Kernel;
    Report.Launches.push_back(std::move(L));
  }
  Filter.requireMatch(O.Profile);
}

} // namespace

CLI::App *addAnalyzeCommand(CLI::App &App, AnalyzeOptions &O) {
  CLI::App *Cmd = App.add_subcommand(
      "analyze", "Seed 002's performance model per launch, now and after each regrouping");
  CLI::Option *Profile =
      Cmd->add_option("PROFILE", O.Profile, "Profile written by DIVOPT_MODE=profile");
  CLI::Option *Kernel =
      Cmd->add_option("--kernel", O.Kernel,
                      "Only launches of this kernel: mangled, demangled, or as in source")
          ->type_name("NAME");
  Cmd->add_option("--latency", O.Latency,
                  "Latency table (JSON, docs/model.md), or 'unit' for 1 cycle per instruction; "
                  "default: the built-in table measured on an H100 (sm_90)")
      ->type_name("TABLE");
  Cmd->add_option("--algorithms", O.Algorithms, "Comma-separated: sorting,greedy,greedy-max")
      ->delimiter(',')
      ->check(CLI::IsMember({"sorting", "greedy", "greedy-max"}))
      ->type_name("LIST");
  Cmd->add_option("--group-size", O.GroupSize, "Threads per group, a multiple of 32")
      ->check(groupSizeCheck, "MULTIPLE OF 32")
      ->capture_default_str();
  Cmd->add_option("--sms", O.SMs, "SMs of the GPU (132: H100 SXM, H200)")
      ->check(CLI::Range(1u, 1u << 16))
      ->capture_default_str();
  Cmd->add_option("--occupancy", O.Occupancy,
                  "Resident thread blocks per SM (default: sm_90's thread limit)")
      ->check(CLI::Range(1u, 1024u))
      ->type_name("N");
  Cmd->add_flag("--json", O.Json, "One JSON document");
  CLI::Option *Csv =
      Cmd->add_option("--bbv-csv", O.BbvCsv, "BBVs: one row per thread, one column per block")
          ->type_name("BBV.csv");
  CLI::Option *Lat =
      Cmd->add_option("--block-latency", O.BlockLatencyCsv, "Rows block,latency (cycles)")
          ->type_name("LAT.csv");
  CLI::Option *Size = Cmd->add_option("--block-size", O.BlockSize, "Threads per thread block")
                          ->check(CLI::Range(1u, 1u << 20))
                          ->type_name("B");
  CLI::Option *Emit =
      Cmd->add_option("--emit-redirect", O.EmitRedirect,
                      "Write each algorithm's D, one logical thread per line, to DIR/ALGO.txt")
          ->type_name("DIR");
  Csv->needs(Lat)->needs(Size)->excludes(Profile)->excludes(Kernel);
  Lat->needs(Csv);
  Size->needs(Csv);
  Emit->needs(Csv);
  Cmd->callback([&O] {
    if (O.Profile.empty() && O.BbvCsv.empty())
      throw CLI::RequiredError("analyze: a PROFILE or --bbv-csv");
  });
  return Cmd;
}

int runAnalyzeCommand(const AnalyzeOptions &O) {
  std::vector<Algorithm> Algorithms;
  for (const std::string &Name : O.Algorithms)
    if (auto A = parseAlgorithm(Name);
        A && std::find(Algorithms.begin(), Algorithms.end(), *A) == Algorithms.end())
      Algorithms.push_back(*A);
  AnalyzeReport Report;
  std::string Unused; // sm_90 is the table asked for: no nearest-table warning
  Report.Latency = O.Latency.empty()    ? builtinLatencyTable(90, Unused)
                   : O.Latency == "unit" ? unitLatencyTable()
                                         : readLatencyTable(O.Latency);
  Inputs In{O, Algorithms, Report.Latency};
  if (O.BbvCsv.empty())
    analyzeProfile(In, Report);
  else
    analyzeCsv(In, Report);
  if (O.Json)
    printAnalyzeJson(std::cout, Report, !O.BbvCsv.empty());
  else
    printAnalyzeText(std::cout, Report);
  return 0;
}

} // namespace divopt
