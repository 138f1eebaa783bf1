#include "model/RedirectionPrice.h"

#include <algorithm>

namespace divopt {

namespace {

constexpr const char *Load = "ld.global";
constexpr const char *Scattered = "ld.global.scattered";

bool exact(const KeyPrice &P) {
  return P.Source == PriceSource::Exact || P.Source == PriceSource::Default;
}

double price(const LatencyTable &Table, const char *Key, std::vector<std::string> &Guessed) {
  KeyPrice P = Table.lookup(Key);
  if (!exact(P))
    Guessed.push_back(Key);
  return P.Cycles;
}

double scatteredPenalty(const LatencyTable &Table, double Coalesced,
                        std::vector<std::string> &Guessed) {
  if (Table.Entries.count(Scattered))
    return std::max(0.0, Table.Entries.at(Scattered).Median - Coalesced);
  Guessed.push_back(Scattered);
  return 7 * Coalesced;
}

} // namespace

RedirectionPrice priceRedirection(const LatencyTable &Table,
                                  const std::vector<unsigned> &TidAccesses) {
  RedirectionPrice R;
  R.PerWarp = price(Table, Load, R.Guessed);
  bool Any = false;
  for (unsigned N : TidAccesses)
    Any |= N != 0;
  if (!Any)
    return R;
  double Penalty = scatteredPenalty(Table, R.PerWarp, R.Guessed);
  for (unsigned N : TidAccesses)
    R.PerBlock.push_back(N * Penalty);
  return R;
}

} // namespace divopt
