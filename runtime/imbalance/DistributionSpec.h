// The command line's names for work distributions:
//   binomial:N,P  geometric:P  poisson:LAMBDA  uniform:A,B  negbinomial:R,P
//   empirical:FILE
// (conventions in ParametricDistributions.h, the counts file in
// EmpiricalDistribution.h).
#pragma once
#include "imbalance/WorkDistribution.h"

#include <string>

namespace divopt::imbalance {

// Epsilon: the tail mass cut off infinite supports (checked even where the
// support is finite, so a bad value never passes unnoticed). Throws
// std::invalid_argument or std::runtime_error with a message for the user.
WorkDistribution parseDistribution(const std::string &Spec, double Epsilon);

} // namespace divopt::imbalance
