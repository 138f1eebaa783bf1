// The figure analogs of seed 002 section VII, drawn from bench results:
// Fig. 7 (actual improvement against the prior metrics), Fig. 8 (actual
// against the BBV-weighted and BBV-weighted-scheduled predictions) and
// Fig. 9 (speedup per app and variant, overhead included).
#pragma once
#include "BenchResults.h"

#include <string>
#include <vector>

namespace divopt::bench {

// The file names, in the order the report shows them.
struct PlotFiles {
  static constexpr const char *Fig7Warps = "fig7-divergent-warps.svg";
  static constexpr const char *Fig7Branches = "fig7-divergent-branches.svg";
  static constexpr const char *Fig8 = "fig8-model-accuracy.svg";
  static constexpr const char *Fig9 = "fig9-speedup.svg";
};

// The variants Fig. 9 shows: every regrouping variant, model only where it
// ran; not online, whose overhead only the End to end section shows.
std::vector<std::string> fig9Variants(const BenchResults &R);

// Writes the four SVGs into Dir; throws std::runtime_error when one cannot
// be written.
void writePlots(const std::string &Dir, const BenchResults &R);

} // namespace divopt::bench
