#include "ReportText.h"
#include "common/KernelFilter.h"
#include "common/TextTable.h"

#include <algorithm>
#include <cstdio>

namespace divopt {

namespace {

std::string fixed(double V, const char *Format = "%.1f") {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, Format, V);
  return Buf;
}

std::string percent(double Ratio) { return fixed(100 * Ratio, "%.1f%%"); }

std::string dims(const std::array<uint32_t, 3> &D) {
  return std::to_string(D[0]) + "x" + std::to_string(D[1]) + "x" + std::to_string(D[2]);
}

// cudaDriverGetVersion encodes 13.0 as 13000.
std::string driverVersion(uint32_t V) {
  return std::to_string(V / 1000) + "." + std::to_string(V % 1000 / 10);
}

std::string computeCapability(uint32_t CC) {
  return std::to_string(CC / 10) + "." + std::to_string(CC % 10);
}

std::string source(const BlockStats &B) {
  if (B.FirstLine == 0)
    return "no line info";
  std::string S = B.File + ":" + std::to_string(B.FirstLine);
  return B.LastLine > B.FirstLine ? S + "-" + std::to_string(B.LastLine) : S;
}

std::string kernelName(const std::string &Mangled) {
  std::string Demangled = demangleKernel(Mangled);
  return Demangled == Mangled ? Mangled : Demangled + " (" + Mangled + ")";
}

std::string ratio(double X) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.2fx", X);
  return Buf;
}

std::string fraction(uint64_t Part, uint64_t Whole, double Ratio) {
  return std::to_string(Part) + " / " + std::to_string(Whole) + " (" + percent(Ratio) + ")";
}

// Of one kernel and shape: what the process launched and what it recorded.
std::string launchCount(const LaunchCount &C) {
  return std::to_string(C.Seen) + " made, " + std::to_string(C.Recorded) +
         " recorded (DIVOPT_PROFILE_LAUNCHES)";
}

// The tally records: every kernel and shape a process launched, recorded or
// not.
void printTallies(std::ostream &OS, const std::vector<TallyRecord> &Tallies) {
  using A = TextTable::Align;
  for (const TallyRecord &T : Tallies) {
    OS << "\nlaunches of " << T.Program << " (pid " << T.Pid << "), per kernel and shape:\n";
    TextTable Table({{"kernel", A::Left},
                     {"grid / block", A::Left},
                     {"made", A::Right},
                     {"recorded", A::Right}});
    for (const LaunchTally &E : T.Tallies)
      Table.addRow({demangleKernel(E.Kernel), dims(E.Grid) + " / " + dims(E.Block),
                    std::to_string(E.Seen), std::to_string(E.Recorded)});
    Table.print(OS, "  ");
  }
}

void printSummary(std::ostream &OS, const LaunchReport &L) {
  const LaunchHeader &H = L.Header;
  const LaunchStats &S = L.Stats;
  // The labels below all fit the 20-column gutter.
  auto line = [&OS](const std::string &Label, const std::string &Value) {
    OS << Label << std::string(20 - Label.size(), ' ') << Value << '\n';
  };
  line("kernel", kernelName(H.Kernel));
  line("program", H.Program + " (pid " + std::to_string(H.Pid) + ", launch " +
                      std::to_string(H.LaunchIndex) + " of this kernel)");
  line("device", H.Device + " (cc " + computeCapability(H.ComputeCapability) + ", driver " +
                     driverVersion(H.DriverVersion) + ")");
  line("grid / block", dims(H.Grid) + " / " + dims(H.Block));
  if (L.Launches)
    line("launches", launchCount(*L.Launches));
  line("threads", std::to_string(S.Threads) + " in " + std::to_string(S.Warps) + " warps, " +
                      std::to_string(S.BasicBlocks) + " basic blocks");
  line("divergent warps", fraction(S.DivergentWarps, S.Warps, S.divergentWarpRatio()));
  line("divergent branches",
       fraction(S.DivergentBranches, S.BranchExecutions, S.divergentBranchRatio()) +
           (S.branchesSampled() ? ", estimated from " + std::to_string(S.BranchCountedBlocks) +
                                      " of " + std::to_string(S.ThreadBlocks) + " thread blocks"
                                : std::string()));
  line("divergence cost", fixed(S.DivergenceCost) + " warp instructions beyond balanced warps");
  if (L.Loop) {
    const LoopImbalance &I = *L.Loop;
    line("loop imbalance", "block " + std::to_string(I.Block) + ": warps run " +
                               ratio(I.CurrentOrder) + " as long as balanced ones (" +
                               (I.Model ? "random grouping: " + ratio(*I.Model) + " by seed 001's model"
                                        : "no model: " + I.ModelProblem) +
                               "; sorted by trip count: " + ratio(I.SortedOrder) + ")");
  }
  const RegroupVerdictNote &R = L.Regroup;
  line("regrouping", R.Safe ? std::string("possible (the pass made a redirected clone)")
                            : "not possible: " + R.Reason +
                                  (R.Line ? " (line " + std::to_string(R.Line) + ")" : ""));
}

// Returns whether a listed block lacked line info.
bool printBlocks(std::ostream &OS, const LaunchStats &S, unsigned Top) {
  size_t Shown = Top ? std::min<size_t>(Top, S.Blocks.size()) : S.Blocks.size();
  if (Shown < S.Blocks.size())
    OS << "top " << Shown << " of " << S.Blocks.size() << " basic blocks by divergence cost:\n";
  else
    OS << "basic blocks by divergence cost:\n";
  using A = TextTable::Align;
  TextTable T({{"block", A::Right},
               {"name", A::Left},
               {"source", A::Left},
               {"executions", A::Right},
               {"warp-max sum", A::Right},
               {"SIMT efficiency", A::Right},
               {"divergence cost", A::Right}});
  bool MissingLines = false;
  for (size_t I = 0; I < Shown; ++I) {
    const BlockStats &B = S.Blocks[I];
    MissingLines |= B.FirstLine == 0;
    T.addRow({std::to_string(B.Id), B.Name, source(B), std::to_string(B.Executions),
              std::to_string(B.WarpMaxSum), B.executed() ? percent(B.simtEfficiency()) : "-",
              fixed(B.DivergenceCost)});
  }
  T.print(OS, "  ");
  return MissingLines;
}

} // namespace

void printTextReport(std::ostream &OS, const std::vector<ProfileReport> &Profiles, unsigned Top) {
  bool MissingLines = false;
  for (const ProfileReport &P : Profiles) {
    OS << "== " << P.Path << ": " << P.Launches.size() << " launch record"
       << (P.Launches.size() == 1 ? "" : "s") << '\n';
    printTallies(OS, P.Tallies);
    for (const LaunchReport &L : P.Launches) {
      OS << '\n';
      printSummary(OS, L);
      OS << '\n';
      MissingLines |= printBlocks(OS, L.Stats, Top);
    }
    OS << '\n';
  }
  if (MissingLines)
    OS << "note: some blocks have no line info; compile with -gline-tables-only for source lines\n";
}

} // namespace divopt
