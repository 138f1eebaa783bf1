// Empirical (categorical) work distributions: observed trip counts, from a
// counts file or from a profile.
//
// Counts file: one observation per line, as text.
//   VALUE          one unit of work that ran VALUE iterations
//   VALUE COUNT    COUNT units of work that ran VALUE iterations
// VALUE and COUNT are non-negative decimal integers separated by blanks;
// blank lines and lines starting with '#' are ignored; a value may appear on
// several lines (its counts add up). The distribution is the observed
// frequencies: P(W = v) = count(v) / total.
#pragma once
#include "imbalance/WorkDistribution.h"

#include <map>
#include <string>

namespace divopt::imbalance {

// Throws std::invalid_argument for no observations (all counts zero) or
// values spanning more than MaxSupportValues.
WorkDistribution empiricalDistribution(std::string Description,
                                       const std::map<uint64_t, uint64_t> &Counts);

// Throws std::runtime_error naming the file (and line) when it cannot be
// read or a line is malformed, and empiricalDistribution's errors.
WorkDistribution readCountsFile(const std::string &Path);

} // namespace divopt::imbalance
