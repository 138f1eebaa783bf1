#include "optimize/RegroupPlan.h"

#include <algorithm>
#include <numeric>
#include <random>

namespace divopt::rt {

bool modelFreePermutation(const std::string &Algorithm, uint64_t Threads,
                          std::vector<uint32_t> &D, std::string &Error) {
  bool Identity = Algorithm == "identity";
  bool Shuffle = Algorithm.rfind("shuffle", 0) == 0;
  if (!Identity && !Shuffle)
    return false;
  D.resize(Threads);
  std::iota(D.begin(), D.end(), 0u);
  if (Shuffle) {
    uint64_t Seed = 1;
    if (Algorithm.size() > 7) {
      if (Algorithm[7] != ':' || Algorithm.size() == 8 ||
          Algorithm.find_first_not_of("0123456789", 8) != std::string::npos) {
        Error = "DIVOPT_ALGORITHM=" + Algorithm + " is not shuffle or shuffle:SEED";
        return true;
      }
      Seed = std::stoull(Algorithm.substr(8));
    }
    std::mt19937_64 Rng(Seed);
    std::shuffle(D.begin(), D.end(), Rng);
  }
  return true;
}

} // namespace divopt::rt
