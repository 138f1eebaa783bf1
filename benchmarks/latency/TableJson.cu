// The latency table as JSON, in the schema runtime/latency/LatencyTable.cpp
// reads (format divopt-latency-table, version 1). Fields the reader does not
// know (an entry's samples and method, the provenance's commit, the
// "unmeasured" and "sweeps" sections) are ignored by it and keep the file
// complete enough to render the report again.
#include "Writers.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <stdexcept>

namespace latency {
using nlohmann::json;

namespace {

// Hundredths of a cycle: more digits would only print the noise.
double cycles(double X) { return std::round(X * 100) / 100; }

} // namespace

const char *const SuiteMethod =
    "divopt latency suite (benchmarks/latency, docs/latency.md): one warp runs a dependent "
    "chain of the operation between two clock64 reads at two chain lengths; latency is the "
    "slope, so loop and clock overheads cancel; companion instructions that keep ptxas from "
    "folding a chain are subtracted; the first in-kernel repetition warms up; median and "
    "interquartile range (spread) of every later repetition of every launch";

namespace {

json provenance(const RunInfo &Run) {
  const DeviceInfo &D = Run.Device;
  json P = {{"device", D.Name},
            {"compute_capability", D.ComputeCapability},
            {"driver", D.Driver},
            {"sm_clock_mhz", cycles(D.SmClockMHz)},
            {"date", Run.Date},
            {"method", Run.Method},
            {"command", Run.Command},
            {"launches_per_measurement", Run.Repeat},
            {"sm_count", D.SmCount},
            {"l2_bytes", D.L2Bytes}};
  if (!Run.Commit.empty())
    P["commit"] = Run.Commit;
  if (!D.SmiClocks.empty())
    P["nvidia_smi_sm_clocks"] = D.SmiClocks;
  return P;
}

json sweep(const Sweep &S) {
  json Lines = json::array();
  for (const Series &L : S.Lines) {
    json Points = json::array();
    for (const Point &P : L.Points)
      Points.push_back({P.X, cycles(P.Median), cycles(P.Spread)});
    Lines.push_back({{"name", L.Name}, {"points", Points}});
  }
  return {{"name", S.Name},     {"group", S.Group},   {"title", S.Title},
          {"x_label", S.XLabel}, {"y_label", S.YLabel}, {"log_x", S.LogX},
          {"finding", S.Finding}, {"series", Lines}};
}

} // namespace

void writeTable(const std::string &Path, const RunInfo &Run, const Results &R) {
  json Entries = json::object();
  for (const Entry &E : R.Entries)
    Entries[E.Key] = {{"median", cycles(E.Median)}, {"spread", cycles(E.Spread)},
                      {"samples", E.Samples},       {"group", E.Group},
                      {"how", E.How}};
  json Missing = json::object();
  for (const Unmeasured &M : R.Missing)
    Missing[M.Key] = {{"group", M.Group}, {"why", M.Why}};
  json Sweeps = json::array();
  for (const Sweep &S : R.Sweeps)
    Sweeps.push_back(sweep(S));
  json Table = {{"format", "divopt-latency-table"}, {"version", 1},
                {"provenance", provenance(Run)},    {"entries", Entries},
                {"unmeasured", Missing},            {"sweeps", Sweeps}};
  std::ofstream Out(Path);
  Out << Table.dump(2) << '\n';
  if (!Out)
    throw std::runtime_error(Path + ": cannot write");
}

void readTable(const std::string &Path, RunInfo &Run, Results &R) {
  std::ifstream In(Path);
  if (!In)
    throw std::runtime_error(Path + ": cannot open");
  json T = json::parse(In);
  const json &P = T.at("provenance");
  DeviceInfo &D = Run.Device;
  D.Name = P.at("device");
  D.ComputeCapability = P.at("compute_capability");
  D.Driver = P.at("driver");
  D.SmClockMHz = P.at("sm_clock_mhz");
  D.SmiClocks = P.value("nvidia_smi_sm_clocks", "");
  D.SmCount = P.value("sm_count", 0);
  D.L2Bytes = P.value("l2_bytes", size_t(0));
  Run.Date = P.at("date");
  Run.Method = P.at("method");
  Run.Command = P.value("command", "");
  Run.Commit = P.value("commit", "");
  Run.Repeat = P.value("launches_per_measurement", 0);
  for (auto &[Key, E] : T.at("entries").items())
    R.Entries.push_back({Key, E.value("group", ""), E.at("median"), E.value("spread", 0.0),
                         E.value("samples", 0), E.value("how", "")});
  const json Missing = T.value("unmeasured", json::object());
  for (auto &[Key, M] : Missing.items())
    R.Missing.push_back({Key, M.value("group", ""), M.value("why", "")});
  for (const json &S : T.value("sweeps", json::array())) {
    Sweep W{S.at("name"), S.value("group", ""), S.value("title", ""), S.value("x_label", ""),
            S.value("y_label", ""), S.value("log_x", false), {}, S.value("finding", "")};
    for (const json &L : S.at("series")) {
      Series Line{L.at("name"), {}};
      for (const json &P : L.at("points"))
        Line.Points.push_back({P.at(0), P.at(1), P.at(2)});
      W.Lines.push_back(Line);
    }
    R.Sweeps.push_back(W);
  }
}

} // namespace latency
