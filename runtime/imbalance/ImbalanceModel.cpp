#include "imbalance/ImbalanceModel.h"
#include "imbalance/NumberFormat.h"

#include <algorithm>
#include <stdexcept>

namespace divopt::imbalance {

ModelCost estimateModelCost(const WorkDistribution &W, unsigned N) {
  double A = double(W.Mass.size()), Nd = double(N);
  ModelCost Cost;
  Cost.MultiplyAdds = (Nd * Nd * Nd / 6) * (A * A / 2) + Nd * Nd / 2 * A;
  Cost.Pairs = Nd * A * (A - 1) / 2 + A;
  return Cost;
}

namespace {

void checkModelSize(const WorkDistribution &W, unsigned N) {
  if (N < 1 || N > MaxGroupSize)
    throw std::invalid_argument("group size must be in 1.." + std::to_string(MaxGroupSize) +
                                ", got " + std::to_string(N));
  if (double(N) * double(W.hi()) >= 4294967296.0)
    throw std::invalid_argument("the model needs n x largest value below 2^32; n=" +
                                std::to_string(N) + " x " + std::to_string(W.hi()) + " is not");
  ModelCost Cost = estimateModelCost(W, N);
  if (Cost.MultiplyAdds > MaxModelMultiplyAdds || Cost.Pairs > MaxModelPairs)
    throw std::invalid_argument(
        "the exact model for n=" + std::to_string(N) + " over " + std::to_string(W.Mass.size()) +
        " values of " + W.Description + " needs about " + formatNumber(Cost.MultiplyAdds, 2) +
        " multiply-adds and up to " + formatNumber(Cost.Pairs, 2) +
        " (max, sum) pairs; the limits are " + formatNumber(MaxModelMultiplyAdds, 2) + " and " +
        formatNumber(MaxModelPairs, 2) +
        ": use a smaller n, or a larger --epsilon for an infinite support");
}

} // namespace

// Values are handled as offsets from W.Lo, so a distribution far from zero
// costs what its width costs. With the values a taken in increasing order,
// Powers[k] holds the (non-normalized) pmf of the offset sum of k draws that
// are all <= a: g(.; k, a) of eq. 9, for every k < n. Adding the value a,
// with mass f, to what the draws may take gives, by how many draws j equal a,
//
//   g(.; k, a) = sum_{j=0..k} C(k, j) f^j shift_{j a} g(.; k - j, a - 1),
//
// and the j >= 1 terms for k = n are exactly P(max = a, sum = .): eq. 10's
// numerator without the cancellation of subtracting g(.; n, a - 1). Every
// term is a product of non-negative numbers, so each joint probability keeps
// its relative accuracy (about 1e-13) however small it is. Rows are updated
// from k = n down, so the rows k - j read are still those of a - 1.
LossDistribution modelImbalance(const WorkDistribution &W, unsigned N) {
  checkModelSize(W, N);
  const size_t A = W.Mass.size();
  std::vector<std::vector<double>> Powers(N);
  Powers[0] = {1.0};
  for (unsigned K = 1; K < N; ++K)
    Powers[K].assign(K * (A - 1) + 1, 0.0);
  std::vector<double> Joint(N * (A - 1) + 1);
  std::vector<LossOutcome> Outcomes;
  double ZeroSumMass = 0;

  for (size_t D = 0; D < A; ++D) {
    double F = W.Mass[D];
    if (F == 0)
      continue; // the alphabet does not change; no group has this maximum
    // Offset sums of m draws <= a - 1 span 0..m (D - 1).
    auto OldLength = [D](size_t M) { return M == 0 ? 1 : (D == 0 ? 0 : M * (D - 1) + 1); };
    for (unsigned K = N; K >= 1; --K) {
      double *Target = K == N ? Joint.data() : Powers[K].data();
      if (K == N)
        std::fill(Joint.begin(), Joint.begin() + N * D + 1, 0.0);
      // C(k, j) f^j from the term before it: no factor alone can overflow
      // (the largest term, C(1024, 512), is 4.5e306), and the rounding
      // grows by a few ulps per step.
      double C = 1;
      for (unsigned J = 1; J <= K; ++J) {
        C *= F * double(K - J + 1) / double(J);
        if (C == 0)
          break; // underflowed while falling: later terms are smaller still
        size_t M = K - J, Length = OldLength(M);
        if (Length == 0)
          continue;
        double *Out = Target + J * D;
        const double *In = Powers[M].data();
        for (size_t O = 0; O < Length; ++O)
          Out[O] += C * In[O];
      }
    }
    uint32_t Num = uint32_t(N * (W.Lo + D));
    for (size_t O = 0; O <= N * D; ++O) {
      double P = Joint[O];
      if (P == 0)
        continue;
      uint32_t Sum = uint32_t(N * W.Lo + O);
      if (Sum == 0) { // every draw is 0: no thread waits for another
        ZeroSumMass += P;
        Outcomes.push_back({1, 1, P});
      } else {
        Outcomes.push_back({Num, Sum, P});
      }
    }
  }
  return LossDistribution(N, std::move(Outcomes), ZeroSumMass);
}

} // namespace divopt::imbalance
