// What the latency suite measures, as the groups hand it to the writers:
// table entries (a key's median and spread in cycles), keys it could not
// measure and why, and sweeps (one plot each).
#pragma once
#include <string>
#include <vector>

namespace latency {

struct Entry {
  std::string Key;
  std::string Group;
  double Median = 0; // cycles
  double Spread = 0; // cycles: interquartile range of the samples
  int Samples = 0;
  std::string How; // what was timed, one line
};

struct Unmeasured {
  std::string Key;
  std::string Group;
  std::string Why;
};

struct Point {
  double X = 0;
  double Median = 0;
  double Spread = 0;
};

struct Series {
  std::string Name;
  std::vector<Point> Points;
};

struct Sweep {
  std::string Name; // file name stem of its plot: divergence-single-loop
  std::string Group;
  std::string Title;
  std::string XLabel;
  std::string YLabel;
  bool LogX = false;
  std::vector<Series> Lines;
  std::string Finding; // one line the markdown prints under the plot
};

struct Results {
  std::vector<Entry> Entries;
  std::vector<Unmeasured> Missing;
  std::vector<Sweep> Sweeps;

  const Entry *find(const std::string &Key) const {
    for (const Entry &E : Entries)
      if (E.Key == Key)
        return &E;
    return nullptr;
  }
};

} // namespace latency
