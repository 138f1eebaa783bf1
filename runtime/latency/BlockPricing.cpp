#include "latency/BlockPricing.h"
#include "latency/IssuePipes.h"

#include <algorithm>
#include <sstream>

namespace divopt {

std::string GuessedKey::warning(const LatencyTable &T) const {
  std::ostringstream S;
  S << "key '" << Key << "' is not in " << T.Origin << ": priced " << Price.Cycles << " cycles, ";
  if (Price.Source == PriceSource::Family)
    S << "the median of its family '" << Price.Family << "'";
  else
    S << "the unit price (no key of its family in the table)";
  return S.str();
}

double priceMix(const std::map<std::string, unsigned> &Mix, const LatencyTable &Table,
                std::vector<GuessedKey> &Guessed) {
  double Cycles = 0;
  for (const auto &[Key, Count] : Mix) {
    KeyPrice P = Table.lookup(Key);
    Cycles += Count * P.Cycles;
    bool Guess = P.Source == PriceSource::Family || P.Source == PriceSource::Unit;
    auto Seen = [&](const GuessedKey &G) { return G.Key == Key; };
    if (Guess && std::none_of(Guessed.begin(), Guessed.end(), Seen))
      Guessed.push_back({Key, P});
  }
  return Cycles;
}

BlockLatencies priceBlocks(const KernelNote &Kernel, const LatencyTable &Table) {
  BlockLatencies R;
  for (const BlockNote &B : Kernel.Blocks)
    R.Cycles.push_back(priceMix(B.Mix, Table, R.Guessed));
  std::sort(R.Guessed.begin(), R.Guessed.end(),
            [](const GuessedKey &A, const GuessedKey &B) { return A.Key < B.Key; });
  return R;
}

std::vector<double> priceChains(const KernelNote &Kernel, const LatencyTable &Table) {
  std::vector<double> Cycles;
  std::vector<GuessedKey> Guessed; // priceBlocks reports them
  for (const BlockNote &B : Kernel.Blocks)
    Cycles.push_back(B.CriticalPath.empty()
                         ? priceMix(B.Mix, Table, Guessed)
                         : std::max(priceMix(B.CriticalPath, Table, Guessed),
                                    issueSlots(B.Mix, Table)));
  return Cycles;
}

} // namespace divopt
