// The parametric work distributions of seed 001 Table I, with the
// conventions that reproduce it: the geometric counts trials up to and
// including the first success (support 1, 2, ...), the negative binomial
// counts failures before the r-th success (support 0, 1, ...), and the
// uniform is over the integers a..b, both included.
//
// Each throws std::invalid_argument with a message naming the parameter
// when a parameter is out of its domain.
#pragma once
#include "imbalance/WorkDistribution.h"

namespace divopt::imbalance {

// Trials must be a positive integer, 0 < P <= 1.
WorkDistribution binomialDistribution(double Trials, double P);
// 0 < P <= 1; tail cut at Epsilon.
WorkDistribution geometricDistribution(double P, double Epsilon);
// Lambda > 0; tail cut at Epsilon.
WorkDistribution poissonDistribution(double Lambda, double Epsilon);
// A, B non-negative integers, A <= B.
WorkDistribution uniformDistribution(double A, double B);
// R > 0 (need not be an integer), 0 < P <= 1; tail cut at Epsilon.
WorkDistribution negativeBinomialDistribution(double R, double P, double Epsilon);

} // namespace divopt::imbalance
