// The exact model of seed 001 (eqs. 6-11): the distribution of
// X_W(n) = n max / sum over a group of n i.i.d. draws of W, through the joint
// distribution of the group's maximum a and its sum s:
//
//   P(max = a, sum = s) = g(s; n, a) - g(s; n, a - 1)        (eqs. 7, 8, 10)
//
// where g(.; n, a) is the n-fold convolution of W's pmf cut to values <= a
// (eq. 9). ImbalanceModel.cpp computes the difference without subtracting.
#pragma once
#include "imbalance/LossDistribution.h"
#include "imbalance/WorkDistribution.h"

namespace divopt::imbalance {

// What the model of a group size costs, known before running it: limits it
// refuses beyond, and the basis of docs/imbalance.md's complexity figures.
struct ModelCost {
  double MultiplyAdds = 0; // about n^3 |range|^2 / 12
  double Pairs = 0;        // (max, sum) pairs at most, about n |range|^2 / 2
};
ModelCost estimateModelCost(const WorkDistribution &W, unsigned N);

inline constexpr double MaxModelMultiplyAdds = 2e10;               // ~15 s on one core
inline constexpr double MaxModelPairs = double(uint64_t(1) << 25); // 16 bytes each

// Group sizes up to the largest CUDA block; beyond it binomial coefficients
// would overflow doubles.
inline constexpr unsigned MaxGroupSize = 1024;

// Throws std::invalid_argument for N outside 1..MaxGroupSize, for sums that
// could reach 2^32, and for a group size and support beyond the limits above
// (the message says how far).
LossDistribution modelImbalance(const WorkDistribution &W, unsigned N);

} // namespace divopt::imbalance
