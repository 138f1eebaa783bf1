// The table as a markdown report: provenance, the entries by group, what
// was not measured and why, and each sweep with its plot and its numbers.
#include "Writers.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <stdexcept>

namespace latency {
namespace {

std::string number(double X) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.2f", X);
  return Buf;
}

// The x values of a sweep print as integers when they are.
std::string axis(double X) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, X == std::floor(X) ? "%.0f" : "%g", X);
  return Buf;
}

void sweepTable(std::ostream &OS, const Sweep &S) {
  std::set<double> Xs;
  for (const Series &L : S.Lines)
    for (const Point &P : L.Points)
      Xs.insert(P.X);
  OS << "| " << S.XLabel << " |";
  for (const Series &L : S.Lines)
    OS << ' ' << L.Name << " |";
  OS << "\n| ---: |";
  for (size_t I = 0; I < S.Lines.size(); ++I)
    OS << " ---: |";
  OS << '\n';
  for (double X : Xs) {
    OS << "| " << axis(X) << " |";
    for (const Series &L : S.Lines) {
      std::string Cell;
      for (const Point &P : L.Points)
        if (P.X == X)
          Cell = number(P.Median) + " ± " + number(P.Spread);
      OS << ' ' << Cell << " |";
    }
    OS << '\n';
  }
}

} // namespace

void writeMarkdown(const std::string &Path, const RunInfo &Run, const Results &R) {
  std::ofstream OS(Path);
  const DeviceInfo &D = Run.Device;
  OS << "# Latency table: " << D.Name << " (sm_" << D.ComputeCapability << ")\n\n"
     << "| | |\n| --- | --- |\n"
     << "| device | " << D.Name << ", " << D.SmCount << " SMs, L2 " << (D.L2Bytes >> 20)
     << " MiB |\n"
     << "| driver | " << D.Driver << " |\n"
     << "| SM clock | " << number(D.SmClockMHz) << " MHz measured (clock64 against %globaltimer)"
     << (D.SmiClocks.empty() ? "" : "; nvidia-smi current, max: " + D.SmiClocks) << " |\n"
     << "| date | " << Run.Date << " |\n"
     << "| commit | " << (Run.Commit.empty() ? "not recorded" : Run.Commit) << " |\n"
     << "| command | `" << Run.Command << "` |\n"
     << "| launches per measurement | " << Run.Repeat << " |\n\n"
     << "Cycles are SM clock cycles; spread is the interquartile range of the samples. "
     << "The method is in docs/latency.md.\n";

  std::vector<std::string> Groups;
  for (const Entry &E : R.Entries)
    if (std::find(Groups.begin(), Groups.end(), E.Group) == Groups.end())
      Groups.push_back(E.Group);
  for (const std::string &G : Groups) {
    OS << "\n## " << G << "\n\n| key | cycles | spread | samples | what one step is |\n"
       << "| --- | ---: | ---: | ---: | --- |\n";
    for (const Entry &E : R.Entries)
      if (E.Group == G)
        OS << "| `" << E.Key << "` | " << number(E.Median) << " | " << number(E.Spread) << " | "
           << E.Samples << " | " << E.How << " |\n";
  }
  if (!R.Missing.empty()) {
    OS << "\n## Not measured\n\n| key | group | why |\n| --- | --- | --- |\n";
    for (const Unmeasured &M : R.Missing)
      OS << "| `" << M.Key << "` | " << M.Group << " | " << M.Why << " |\n";
  }
  for (const Sweep &S : R.Sweeps) {
    OS << "\n## " << S.Title << "\n\n![" << S.Title << "](" << S.Name << ".svg)\n\n";
    if (!S.Finding.empty())
      OS << S.Finding << "\n\n";
    sweepTable(OS, S);
  }
  if (!OS)
    throw std::runtime_error(Path + ": cannot write");
}

} // namespace latency
