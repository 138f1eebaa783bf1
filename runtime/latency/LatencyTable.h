// A latency table: cycles per instruction key (docs/latency-keys.md), with
// where the numbers came from. The model prices a basic block as the sum of
// its instruction mix times these entries (seed 002, section IV-B).
// The file format is in docs/model.md.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

namespace divopt {

// Where a table's numbers come from; every field is required in a file.
struct LatencyProvenance {
  std::string Device;
  unsigned ComputeCapability = 0; // major * 10 + minor
  std::string Driver;
  double SmClockMHz = 0;
  std::string Date;
  std::string Method; // how the numbers were obtained (benchmark, paper, placeholder)
  // The device's L2 in bytes ("l2_bytes", optional: 0 where a table does not
  // say): how much of a launch's data the model lets L2 keep (docs/model.md).
  uint64_t L2Bytes = 0;
};

struct LatencyEntry {
  double Median = 0;           // cycles
  std::optional<double> Spread; // cycles, as the method defines it; absent when not reported
};

// How lookup() priced a key; everything but Exact and Default is a guess
// that the caller should warn about.
enum class PriceSource {
  Exact,   // the key is in the table
  Default, // the table prices every unlisted key the same by design (unit table)
  Family,  // median of the table's keys of the same op family ("rem" for rem.s64)
  Unit,    // nothing close in the table: 1 cycle
};

struct KeyPrice {
  double Cycles = 0;
  PriceSource Source = PriceSource::Exact;
  std::string Family; // the family used when Source is Family
};

struct LatencyTable {
  std::string Origin; // the file it was read from, or a description of a built-in table
  LatencyProvenance Provenance;
  std::map<std::string, LatencyEntry> Entries;
  // Price of every key not in Entries, for tables defined that way (the
  // built-in unit table); measured tables leave it unset.
  std::optional<double> Default;
  // True when no number in the table was measured on the device it names.
  bool Placeholder = false;

  // Exact key, else Default, else the median of the key's family (the key
  // up to its first '.'), else 1 cycle.
  KeyPrice lookup(const std::string &Key) const;
};

// A table that cannot be used: the message names the file and the key.
struct LatencyTableError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Origin names the source in error messages and in LatencyTable::Origin.
LatencyTable parseLatencyTable(const std::string &Json, const std::string &Origin);
LatencyTable readLatencyTable(const std::string &Path);

} // namespace divopt
