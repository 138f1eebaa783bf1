#include "latency/UnitLatencyTable.h"

namespace divopt {

namespace {

// Placeholders, not measured: round figures of the order published for
// recent NVIDIA GPUs (shared/L1 tens of cycles, DRAM hundreds). They keep a
// block that loads from global memory from looking as cheap as an add; a
// measured table (divopt latency, --latency) replaces them.
constexpr double OnChip = 30;   // shared, constant, parameter space
constexpr double OffChip = 500; // global, local, generic, atomics

} // namespace

LatencyTable unitLatencyTable() {
  LatencyTable T;
  T.Origin = "built-in unit table";
  T.Placeholder = true;
  T.Provenance.Device = "any";
  T.Provenance.Driver = "any";
  T.Provenance.Date = "-";
  T.Provenance.Method = "1 cycle per instruction; memory rows are placeholders, not measured";
  T.Default = 1;
  for (const char *Key : {"ld.shared", "st.shared", "ld.const", "ld.param", "atom.shared"})
    T.Entries[Key] = {OnChip, std::nullopt};
  for (const char *Key : {"ld.global", "st.global", "ld.local", "st.local", "ld.generic",
                          "st.generic", "atom.global", "atom.generic"})
    T.Entries[Key] = {OffChip, std::nullopt};
  return T;
}

} // namespace divopt
