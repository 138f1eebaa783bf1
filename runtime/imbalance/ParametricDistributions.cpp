#include "imbalance/ParametricDistributions.h"
#include "imbalance/NumberFormat.h"

#include <cmath>
#include <stdexcept>

namespace divopt::imbalance {

namespace {

[[noreturn]] void badParameter(const std::string &Distribution, const std::string &What,
                               double Got) {
  throw std::invalid_argument(Distribution + ": " + What + ", got " + formatNumber(Got));
}

void checkProbability(const std::string &Distribution, double P) {
  if (!(P > 0 && P <= 1))
    badParameter(Distribution, "p must be in (0, 1]", P);
}

bool isCount(double X) {
  return std::isfinite(X) && X >= 0 && std::floor(X) == X && X < double(MaxSupportValues);
}

// W == Value always (p = 1 makes the binomial, geometric and negative
// binomial degenerate, and their general formulas would take log(0)).
WorkDistribution degenerate(std::string Description, uint64_t Value) {
  WorkDistribution W;
  W.Description = std::move(Description);
  W.Lo = Value;
  W.Mass = {1.0};
  W.MakeSampler = [Value] { return Sampler([Value](std::mt19937 &) { return Value; }); };
  return W;
}

double logChoose(double N, double K) {
  return std::lgamma(N + 1) - std::lgamma(K + 1) - std::lgamma(N - K + 1);
}

} // namespace

WorkDistribution binomialDistribution(double Trials, double P) {
  if (!isCount(Trials) || Trials < 1)
    badParameter("binomial",
                 "n must be a positive integer below " + std::to_string(MaxSupportValues), Trials);
  checkProbability("binomial", P);
  std::string Description = "binomial(n=" + formatNumber(Trials) + ", p=" + formatNumber(P) + ")";
  uint64_t N = uint64_t(Trials);
  if (P == 1)
    return degenerate(Description, N);
  WorkDistribution W;
  W.Description = std::move(Description);
  for (uint64_t K = 0; K <= N; ++K)
    W.Mass.push_back(std::exp(logChoose(Trials, double(K)) + double(K) * std::log(P) +
                              double(N - K) * std::log1p(-P)));
  W.MakeSampler = [N, P] {
    return Sampler(
        [D = std::binomial_distribution<uint64_t>(N, P)](std::mt19937 &G) mutable { return D(G); });
  };
  return W;
}

WorkDistribution geometricDistribution(double P, double Epsilon) {
  checkProbability("geometric", P);
  std::string Description = "geometric(p=" + formatNumber(P) + ")";
  if (P == 1)
    return degenerate(Description, 1);
  WorkDistribution W = truncateUpperTail(
      Description, 1, [P](uint64_t K) { return P * std::exp(double(K - 1) * std::log1p(-P)); },
      Epsilon);
  // std::geometric_distribution counts the failures before the first
  // success; seed 001 counts the trials.
  W.MakeSampler = [P] {
    return Sampler([D = std::geometric_distribution<uint64_t>(P)](std::mt19937 &G) mutable {
      return D(G) + 1;
    });
  };
  return W;
}

WorkDistribution poissonDistribution(double Lambda, double Epsilon) {
  if (!(Lambda > 0 && std::isfinite(Lambda)))
    badParameter("poisson", "lambda must be positive and finite", Lambda);
  WorkDistribution W = truncateUpperTail(
      "poisson(lambda=" + formatNumber(Lambda) + ")", 0,
      [Lambda](uint64_t K) {
        return std::exp(-Lambda + double(K) * std::log(Lambda) - std::lgamma(double(K) + 1));
      },
      Epsilon);
  W.MakeSampler = [Lambda] {
    return Sampler([D = std::poisson_distribution<uint64_t>(Lambda)](std::mt19937 &G) mutable {
      return D(G);
    });
  };
  return W;
}

WorkDistribution uniformDistribution(double A, double B) {
  if (!isCount(A))
    badParameter("uniform",
                 "a must be a non-negative integer below " + std::to_string(MaxSupportValues), A);
  if (!isCount(B))
    badParameter("uniform",
                 "b must be a non-negative integer below " + std::to_string(MaxSupportValues), B);
  if (B < A)
    throw std::invalid_argument("uniform: b must be >= a, got a=" + formatNumber(A) +
                                ", b=" + formatNumber(B));
  uint64_t Lo = uint64_t(A), Hi = uint64_t(B);
  WorkDistribution W;
  W.Description = "uniform(a=" + formatNumber(A) + ", b=" + formatNumber(B) + ")";
  W.Lo = Lo;
  W.Mass.assign(Hi - Lo + 1, 1.0 / double(Hi - Lo + 1));
  W.MakeSampler = [Lo, Hi] {
    return Sampler([D = std::uniform_int_distribution<uint64_t>(Lo, Hi)](std::mt19937 &G) mutable {
      return D(G);
    });
  };
  return W;
}

WorkDistribution negativeBinomialDistribution(double R, double P, double Epsilon) {
  if (!(R > 0 && std::isfinite(R)))
    badParameter("negbinomial", "r must be positive and finite", R);
  checkProbability("negbinomial", P);
  std::string Description = "negbinomial(r=" + formatNumber(R) + ", p=" + formatNumber(P) + ")";
  if (P == 1)
    return degenerate(Description, 0);
  WorkDistribution W = truncateUpperTail(
      Description, 0,
      [R, P](uint64_t K) {
        double Kd = double(K);
        return std::exp(std::lgamma(Kd + R) - std::lgamma(Kd + 1) - std::lgamma(R) +
                        R * std::log(P) + Kd * std::log1p(-P));
      },
      Epsilon);
  // Failures before the r-th success: for a small integer r, the sum of r
  // geometric failure counts, four times faster than the gamma-Poisson
  // mixture that (unlike std::negative_binomial_distribution) also takes a
  // non-integer r.
  if (R == std::floor(R) && R <= 64)
    W.MakeSampler = [R, P] {
      return Sampler([Successes = unsigned(R),
                      D = std::geometric_distribution<uint64_t>(P)](std::mt19937 &G) mutable {
        uint64_t Failures = 0;
        for (unsigned I = 0; I < Successes; ++I)
          Failures += D(G);
        return Failures;
      });
    };
  else
    W.MakeSampler = [R, P] {
      return Sampler([Gamma = std::gamma_distribution<double>(R, (1 - P) / P)](
                         std::mt19937 &G) mutable -> uint64_t {
        double Mean = Gamma(G);
        return Mean > 0 ? std::poisson_distribution<uint64_t>(Mean)(G) : 0;
      });
    };
  return W;
}

} // namespace divopt::imbalance
