#include "BenchAppOutput.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace divopt::bench {
using nlohmann::json;

namespace {

[[noreturn]] void bad(const std::string &App, const std::string &Problem) {
  throw std::runtime_error("bench-app-" + App + ": " + Problem);
}

const json &field(const std::string &App, const json &J, const char *Key) {
  auto It = J.find(Key);
  if (It == J.end())
    bad(App, std::string("its JSON line has no \"") + Key + "\"");
  return *It;
}

std::string text(const std::string &App, const json &J, const char *Key) {
  const json &V = field(App, J, Key);
  if (!V.is_string())
    bad(App, std::string("\"") + Key + "\" is not a string");
  return V.get<std::string>();
}

uint64_t count(const std::string &App, const json &J, const char *Key) {
  const json &V = field(App, J, Key);
  if (!V.is_number_unsigned() && !(V.is_number_integer() && V.get<int64_t>() >= 0))
    bad(App, std::string("\"") + Key + "\" is not a non-negative integer");
  return V.get<uint64_t>();
}

double milliseconds(const std::string &App, const json &V, const std::string &Key) {
  if (!V.is_number() || !std::isfinite(V.get<double>()) || V.get<double>() < 0)
    bad(App, "\"" + Key + "\" is not a non-negative number of milliseconds");
  return V.get<double>();
}

bool isChecksum(const std::string &S) {
  if (S.size() != 16)
    return false;
  for (char C : S)
    if (!std::isxdigit(static_cast<unsigned char>(C)))
      return false;
  return true;
}

// The one line the contract allows; blank lines around it are tolerated.
std::string onlyLine(const std::string &App, const std::string &Stdout) {
  std::istringstream In(Stdout);
  std::string Line, Found;
  unsigned Lines = 0;
  while (std::getline(In, Line)) {
    if (Line.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    ++Lines;
    Found = Line;
  }
  if (Lines == 0)
    bad(App, "printed nothing on stdout (expected one JSON line)");
  if (Lines > 1)
    bad(App, "printed " + std::to_string(Lines) +
                 " lines on stdout (expected exactly one JSON line; diagnostics go to stderr)");
  return Found;
}

} // namespace

AppOutput parseAppOutput(const std::string &App, const std::string &Stdout) {
  std::string Line = onlyLine(App, Stdout);
  json J;
  try {
    J = json::parse(Line);
  } catch (const json::parse_error &E) {
    bad(App, std::string("its stdout line is not JSON (") + E.what() + "): " + Line.substr(0, 120));
  }
  if (!J.is_object())
    bad(App, "its stdout line is JSON but not an object");
  AppOutput O;
  O.App = text(App, J, "app");
  if (O.App != App)
    bad(App, "its JSON line names app \"" + O.App + "\"");
  O.Variant = text(App, J, "variant");
  O.Kernel = text(App, J, "kernel");
  if (O.Kernel.empty())
    bad(App, "\"kernel\" is empty (the timed kernel's device-side name is needed)");
  O.Threads = count(App, J, "threads");
  O.Size = count(App, J, "size");
  O.Seed = count(App, J, "seed");
  O.Repeat = int(count(App, J, "repeat"));
  const json &Times = field(App, J, "times_ms");
  if (!Times.is_array() || Times.empty())
    bad(App, "\"times_ms\" is not a non-empty array");
  for (const json &T : Times)
    O.TimesMs.push_back(milliseconds(App, T, "times_ms"));
  if (O.TimesMs.size() != size_t(O.Repeat))
    bad(App, "\"times_ms\" has " + std::to_string(O.TimesMs.size()) + " times for repeat " +
                 std::to_string(O.Repeat));
  O.MedianMs = milliseconds(App, field(App, J, "median_ms"), "median_ms");
  O.MinMs = milliseconds(App, field(App, J, "min_ms"), "min_ms");
  O.MaxMs = milliseconds(App, field(App, J, "max_ms"), "max_ms");
  O.Checksum = text(App, J, "checksum");
  if (!isChecksum(O.Checksum))
    bad(App, "\"checksum\" \"" + O.Checksum + "\" is not 16 hex digits");
  for (char &C : O.Checksum)
    C = char(std::tolower(static_cast<unsigned char>(C)));
  O.Check = text(App, J, "check");
  if (O.Check != "pass" && O.Check != "skipped")
    bad(App, "\"check\" is \"" + O.Check + "\" (expected pass or skipped)");
  O.RegroupMs = milliseconds(App, field(App, J, "regroup_ms"), "regroup_ms");
  const json &Bound = field(App, J, "compute_bound");
  if (!Bound.is_boolean())
    bad(App, "\"compute_bound\" is not true or false");
  O.ComputeBound = Bound.get<bool>();
  if (auto E2e = J.find("end_to_end_ms"); E2e != J.end() && !E2e->is_null())
    O.EndToEndMs = milliseconds(App, *E2e, "end_to_end_ms");
  return O;
}

std::vector<RuntimeDecision> parseRuntimeDecisions(const std::string &Stderr) {
  static const std::regex Line(
      R"(^divopt: (not )?regrouping (\S+) (<<<[^>]*>>>): (.*) \[decided in ([0-9.]+) ms\]( \(([^)]*)\))?\s*$)");
  static const std::regex Machine(R"((\d+) SMs x (\d+) blocks)");
  std::vector<RuntimeDecision> Out;
  std::istringstream In(Stderr);
  std::string L;
  while (std::getline(In, L)) {
    std::smatch M;
    if (!std::regex_match(L, M, Line))
      continue;
    RuntimeDecision D;
    D.Regrouped = !M[1].matched;
    D.Kernel = M[2];
    D.Shape = M[3];
    D.Why = M[4];
    D.DecidedMs = std::stod(M[5]);
    D.Stages = M[7];
    std::smatch G;
    if (std::regex_search(D.Why, G, Machine)) {
      D.SMs = uint32_t(std::stoul(G[1]));
      D.Occupancy = uint32_t(std::stoul(G[2]));
    }
    Out.push_back(std::move(D));
  }
  return Out;
}

std::optional<RuntimeDecision> decisionFor(const std::vector<RuntimeDecision> &All,
                                           const std::string &Kernel) {
  for (const RuntimeDecision &D : All)
    if (D.Kernel == Kernel)
      return D;
  return std::nullopt;
}

std::string predictionCheckFor(const std::string &FitStdout, const std::string &Kernel) {
  std::istringstream In(FitStdout);
  std::string Prefix = "check: kernel " + Kernel + " on ";
  for (std::string Line; std::getline(In, Line);)
    if (Line.rfind(Prefix, 0) == 0)
      if (size_t Colon = Line.find(": ", Prefix.size()); Colon != std::string::npos)
        return Line.substr(Colon + 2);
  return "";
}

} // namespace divopt::bench
