#include "imbalance/EmpiricalDistribution.h"

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace divopt::imbalance {

WorkDistribution empiricalDistribution(std::string Description,
                                       const std::map<uint64_t, uint64_t> &Counts) {
  std::map<uint64_t, uint64_t> Seen;
  long double Total = 0; // uint64 counts could overflow a uint64 sum
  for (auto [Value, Count] : Counts)
    if (Count) {
      Seen.emplace(Value, Count);
      Total += Count;
    }
  if (Seen.empty())
    throw std::invalid_argument(Description + ": empty distribution (no observations)");
  uint64_t Lo = Seen.begin()->first, Hi = Seen.rbegin()->first;
  if (Hi - Lo >= MaxSupportValues)
    throw std::invalid_argument(Description + ": values span " + std::to_string(Lo) + ".." +
                                std::to_string(Hi) + ", more than " +
                                std::to_string(MaxSupportValues) + " values");
  WorkDistribution W;
  W.Description = std::move(Description);
  W.Lo = Lo;
  W.Mass.assign(Hi - Lo + 1, 0.0);
  std::vector<uint64_t> Values;
  std::vector<double> Weights;
  for (auto [Value, Count] : Seen) {
    W.Mass[Value - Lo] = double(Count / Total);
    Values.push_back(Value);
    Weights.push_back(double(Count));
  }
  W.MakeSampler = [Values, Weights] {
    return Sampler([Values, D = std::discrete_distribution<size_t>(Weights.begin(), Weights.end())](
                       std::mt19937 &G) mutable { return Values[D(G)]; });
  };
  return W;
}

namespace {

// A non-negative decimal integer, the whole of Text.
bool parseCount(const std::string &Text, uint64_t &Out) {
  const char *End = Text.data() + Text.size();
  auto [Ptr, Ec] = std::from_chars(Text.data(), End, Out);
  return Ec == std::errc() && Ptr == End;
}

} // namespace

WorkDistribution readCountsFile(const std::string &Path) {
  std::ifstream In(Path);
  if (!In)
    throw std::runtime_error(Path + ": cannot open counts file (" + std::strerror(errno) + ")");
  std::map<uint64_t, uint64_t> Counts;
  std::string Line;
  for (unsigned LineNo = 1; std::getline(In, Line); ++LineNo) {
    std::istringstream Fields(Line);
    std::vector<std::string> Words;
    for (std::string Word; Fields >> Word;)
      Words.push_back(Word);
    if (Words.empty() || Words[0][0] == '#')
      continue;
    auto Bad = [&](const std::string &Why) {
      return std::runtime_error(Path + ":" + std::to_string(LineNo) + ": " + Why);
    };
    if (Words.size() > 2)
      throw Bad("expected 'VALUE' or 'VALUE COUNT', got " + std::to_string(Words.size()) +
                " fields");
    uint64_t Value = 0, Count = 1;
    if (!parseCount(Words[0], Value))
      throw Bad("value '" + Words[0] + "' is not a non-negative integer");
    if (Words.size() == 2 && !parseCount(Words[1], Count))
      throw Bad("count '" + Words[1] + "' is not a non-negative integer");
    uint64_t &Sum = Counts[Value];
    if (Sum > UINT64_MAX - Count)
      throw Bad("the counts of value " + Words[0] + " add up past 2^64");
    Sum += Count;
  }
  if (In.bad())
    throw std::runtime_error(Path + ": read error");
  return empiricalDistribution("empirical(" + Path + ")", Counts);
}

} // namespace divopt::imbalance
