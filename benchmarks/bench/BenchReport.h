// The markdown report of `divopt bench`: provenance, the result check (a
// red FAIL for every variant whose checksum differs from the baseline's),
// kernel times, and the Table V, Fig. 7, 8 and 9 analogs as tables beside
// links to the plots.
#pragma once
#include "BenchResults.h"

#include <ostream>

namespace divopt::bench {

void writeMarkdownReport(std::ostream &OS, const BenchResults &R);

} // namespace divopt::bench
