#include "LatencyCommand.h"
#include "common/InstalledPaths.h"
#include "common/TextTable.h"
#include "latency/LatencyTable.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace divopt {

CLI::App *addLatencyCommand(CLI::App &App, LatencyOptions &Options) {
  CLI::App *Cmd = App.add_subcommand(
      "latency", "Measure this GPU's latency table (docs/latency.md), or --show one");
  CLI::Option *Out = Cmd->add_option("--out", Options.Out,
                                     "Directory for latency-table.json, .md and the plots")
                         ->type_name("DIR")
                         ->capture_default_str();
  CLI::Option *Only = Cmd->add_option("--only", Options.Only,
                                      "Groups to run: instructions, memory, sync, atomics, "
                                      "divergence, throughput (comma-separated)")
                          ->type_name("GROUP");
  CLI::Option *Repeat =
      Cmd->add_option("--repeat", Options.Repeat, "Launches per measurement (default 3)")
          ->type_name("N");
  Cmd->add_option("--show", Options.Show, "Print this latency table instead of measuring")
      ->type_name("FILE")
      ->excludes(Out)
      ->excludes(Only)
      ->excludes(Repeat);
  return Cmd;
}

namespace {

std::string number(double X) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.2f", X);
  return Buf;
}

int show(const std::string &Path) {
  LatencyTable T = readLatencyTable(Path);
  const LatencyProvenance &P = T.Provenance;
  std::cout << "Latency table " << Path << "\n  " << P.Device << " (sm_" << P.ComputeCapability
            << "), driver " << P.Driver << ", SM clock " << number(P.SmClockMHz) << " MHz, "
            << P.Date << "\n  method: " << P.Method << "\n";
  if (T.Placeholder)
    std::cout << "  placeholder: no number in it was measured on this device\n";
  if (T.Default)
    std::cout << "  every key not listed: " << number(*T.Default) << " cycles\n";
  std::cout << '\n';
  TextTable Table({{"key", TextTable::Align::Left},
                   {"cycles", TextTable::Align::Right},
                   {"spread", TextTable::Align::Right}});
  for (const auto &[Key, E] : T.Entries)
    Table.addRow({Key, number(E.Median), E.Spread ? number(*E.Spread) : "-"});
  Table.print(std::cout, "  ");
  return 0;
}

// The revision the table is measured with, when the source tree is here.
std::string commit() {
  std::string Command =
      "git -C '" DIVOPT_SOURCE_DIR "' describe --always --dirty --abbrev=12 2>/dev/null";
  FILE *Pipe = popen(Command.c_str(), "r");
  if (!Pipe)
    return "";
  char Line[128] = "";
  if (!std::fgets(Line, sizeof Line, Pipe))
    Line[0] = 0;
  std::string Rev = Line;
  if (pclose(Pipe) != 0)
    return "";
  while (!Rev.empty() && (Rev.back() == '\n' || Rev.back() == '\r'))
    Rev.pop_back();
  return Rev;
}

// Runs the suite with Args; its progress and messages go straight through.
int runSuite(const std::vector<std::string> &Args) {
  std::cerr << "$";
  for (const std::string &A : Args)
    std::cerr << ' ' << A;
  std::cerr << '\n';
  std::vector<char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  std::cout.flush();
  pid_t Child = fork();
  if (Child < 0)
    throw std::runtime_error("cannot start the latency suite (fork failed)");
  if (Child == 0) {
    execv(Argv[0], Argv.data());
    std::perror(Argv[0]);
    _exit(127);
  }
  int Status = 0;
  if (waitpid(Child, &Status, 0) < 0)
    throw std::runtime_error("lost the latency suite (waitpid failed)");
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : 1;
}

} // namespace

int runLatencyCommand(const LatencyOptions &Options) {
  if (!Options.Show.empty())
    return show(Options.Show);
  // An install has its own copy of the suite (cmake/DivOptInstall.cmake).
  std::string Suite = installedPath(DIVOPT_INSTALL_LATENCY_SUITE);
  if (Suite.empty())
    Suite = DIVOPT_LATENCY_SUITE;
  if (!std::filesystem::exists(Suite))
    throw std::runtime_error("the latency suite " + Suite +
                             " is not built: ninja -C <build> bench-latency");
  std::vector<std::string> Args{Suite, "--out", Options.Out};
  if (!Options.Only.empty())
    Args.insert(Args.end(), {"--only", Options.Only});
  if (!Options.Repeat.empty())
    Args.insert(Args.end(), {"--repeat", Options.Repeat});
  if (std::string Rev = commit(); !Rev.empty())
    Args.insert(Args.end(), {"--commit", Rev});
  return runSuite(Args);
}

} // namespace divopt
