#include "latency/LatencyTable.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

namespace divopt {
using nlohmann::json;

namespace {

// The format's name and version, so a reader refuses a file it does not know.
constexpr const char *Format = "divopt-latency-table";
constexpr unsigned Version = 1;

std::string family(const std::string &Key) { return Key.substr(0, Key.find('.')); }

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

class Reader {
public:
  explicit Reader(std::string Origin) : Origin(std::move(Origin)) {}

  [[noreturn]] void fail(const std::string &What) const {
    throw LatencyTableError(Origin + ": " + What);
  }

  const json &member(const json &Object, const char *Key, const std::string &Where) const {
    auto It = Object.find(Key);
    if (It == Object.end())
      fail(Where + "lacks \"" + Key + "\"");
    return *It;
  }

  std::string text(const json &Object, const char *Key, const std::string &Where) const {
    const json &V = member(Object, Key, Where);
    if (!V.is_string() || V.get<std::string>().empty())
      fail(Where + "\"" + Key + "\" must be a non-empty string");
    return V.get<std::string>();
  }

  // Cycles and clocks: finite and not negative.
  double cycles(const json &V, const std::string &What) const {
    if (!V.is_number() || !std::isfinite(V.get<double>()) || V.get<double>() < 0)
      fail(What + " must be a non-negative number");
    return V.get<double>();
  }

  LatencyProvenance provenance(const json &P) const {
    const std::string Where = "provenance ";
    if (!P.is_object())
      fail("\"provenance\" must be an object");
    LatencyProvenance R;
    R.Device = text(P, "device", Where);
    const json &Cc = member(P, "compute_capability", Where);
    if (!Cc.is_number_unsigned())
      fail(Where + "\"compute_capability\" must be an integer such as 90");
    R.ComputeCapability = Cc.get<unsigned>();
    R.Driver = text(P, "driver", Where);
    R.SmClockMHz = cycles(member(P, "sm_clock_mhz", Where), Where + "\"sm_clock_mhz\"");
    R.Date = text(P, "date", Where);
    R.Method = text(P, "method", Where);
    if (auto L2 = P.find("l2_bytes"); L2 != P.end()) {
      if (!L2->is_number_unsigned())
        fail(Where + "\"l2_bytes\" must be a whole number of bytes");
      R.L2Bytes = L2->get<uint64_t>();
    }
    return R;
  }

  LatencyEntry entry(const std::string &Key, const json &E) const {
    std::string Where = "key '" + Key + "'";
    if (!E.is_object())
      fail(Where + ": an entry must be an object {\"median\": cycles, \"spread\": cycles}");
    LatencyEntry R;
    R.Median = cycles(member(E, "median", Where + " "), Where + ": \"median\"");
    if (auto S = E.find("spread"); S != E.end() && !S->is_null())
      R.Spread = cycles(*S, Where + ": \"spread\"");
    return R;
  }

  LatencyTable table(const json &J) const {
    if (!J.is_object())
      fail("a latency table is a JSON object");
    auto F = J.find("format");
    if (F == J.end() || !F->is_string() || *F != Format)
      fail(std::string("not a latency table (\"format\" must be \"") + Format + "\")");
    if (!J.contains("version") || J["version"] != Version)
      fail("unsupported version (this divopt reads version " + std::to_string(Version) + ")");
    LatencyTable T;
    T.Origin = Origin;
    T.Provenance = provenance(member(J, "provenance", ""));
    if (auto P = J.find("placeholder"); P != J.end()) {
      if (!P->is_boolean())
        fail("\"placeholder\" must be true or false");
      T.Placeholder = P->get<bool>();
    }
    if (auto D = J.find("default"); D != J.end())
      T.Default = cycles(*D, "\"default\"");
    const json &Entries = member(J, "entries", "");
    if (!Entries.is_object())
      fail("\"entries\" must be an object of key -> {\"median\", \"spread\"}");
    for (auto It = Entries.begin(); It != Entries.end(); ++It)
      T.Entries[It.key()] = entry(It.key(), It.value());
    return T;
  }

private:
  std::string Origin;
};

} // namespace

KeyPrice LatencyTable::lookup(const std::string &Key) const {
  if (auto It = Entries.find(Key); It != Entries.end())
    return {It->second.Median, PriceSource::Exact, ""};
  if (Default)
    return {*Default, PriceSource::Default, ""};
  std::string F = family(Key);
  std::vector<double> Same;
  for (const auto &[K, E] : Entries)
    if (family(K) == F)
      Same.push_back(E.Median);
  if (!Same.empty())
    return {median(Same), PriceSource::Family, F};
  return {1.0, PriceSource::Unit, ""};
}

LatencyTable parseLatencyTable(const std::string &Text, const std::string &Origin) {
  json J;
  try {
    J = json::parse(Text);
  } catch (const json::parse_error &E) {
    throw LatencyTableError(Origin + ": not valid JSON (" + E.what() + ")");
  }
  return Reader(Origin).table(J);
}

LatencyTable readLatencyTable(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    throw LatencyTableError(Path + ": cannot open latency table");
  std::ostringstream Text;
  Text << In.rdbuf();
  return parseLatencyTable(Text.str(), Path);
}

} // namespace divopt
