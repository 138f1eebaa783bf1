// Speed of the exact imbalance model on the CPU (seed 001 section III-B):
//   1. all of Table I (5 distributions x n = 2..32), per row and in total,
//      with the modelled mean next to the paper's and the Monte Carlo check;
//   2. growth with the group size n at a fixed support;
//   3. growth with the support size |supp W| at n = 32;
// against the O(n |supp W|^2) outcomes of the paper's bound and the
// O(n^3 |supp W|^2) multiply-adds of the dynamic program.
//
//   bench-imbalance-model [--no-monte-carlo]
// Times are medians of repeated runs on one thread (the simulation uses
// every hardware thread).
#include "imbalance/DistributionSpec.h"
#include "imbalance/ImbalanceModel.h"
#include "imbalance/MonteCarlo.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace divopt::imbalance;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point Since) {
  return std::chrono::duration<double>(Clock::now() - Since).count();
}

// Median time of F over at least 3 runs and 0.3 s.
template <typename F> double medianSeconds(F &&Run) {
  std::vector<double> Times;
  auto Start = Clock::now();
  while (Times.size() < 3 || (seconds(Start) < 0.3 && Times.size() < 101)) {
    auto T0 = Clock::now();
    Run();
    Times.push_back(seconds(T0));
  }
  std::sort(Times.begin(), Times.end());
  return Times[Times.size() / 2];
}

struct Row {
  const char *Spec;
  unsigned N;
  double PaperMuA;
};

const Row TableI[] = {
    {"binomial:40,0.5", 2, 1.090},    {"binomial:40,0.5", 4, 1.163},
    {"binomial:40,0.5", 8, 1.225},    {"binomial:40,0.5", 16, 1.278},
    {"binomial:40,0.5", 32, 1.325},   {"geometric:0.05", 2, 1.476},
    {"geometric:0.05", 4, 2.047},     {"geometric:0.05", 8, 2.668},
    {"geometric:0.05", 16, 3.317},    {"geometric:0.05", 32, 3.979},
    {"poisson:30", 2, 1.104},         {"poisson:30", 4, 1.191},
    {"poisson:30", 8, 1.268},         {"poisson:30", 16, 1.335},
    {"poisson:30", 32, 1.397},        {"uniform:20,40", 2, 1.118},
    {"uniform:20,40", 4, 1.213},      {"uniform:20,40", 8, 1.275},
    {"uniform:20,40", 16, 1.309},     {"uniform:20,40", 32, 1.326},
    {"negbinomial:5,0.3", 2, 1.301},  {"negbinomial:5,0.3", 4, 1.587},
    {"negbinomial:5,0.3", 8, 1.860},  {"negbinomial:5,0.3", 16, 2.123},
    {"negbinomial:5,0.3", 32, 2.375},
};

void tableI(bool MonteCarlo) {
  std::printf("== Table I (epsilon 1e-6)\n");
  std::printf("%-18s %3s %6s %9s %9s %9s %10s %9s", "dist", "n", "|supp|", "paper mu_A", "model",
              "|diff|", "outcomes", "model s");
  if (MonteCarlo)
    std::printf(" %9s %9s %10s %9s", "groups", "simulated", "rel. err", "sim s");
  std::printf("\n");
  double MaxDiff = 0, MaxRelative = 0;
  for (const Row &R : TableI) {
    WorkDistribution W = parseDistribution(R.Spec, 1e-6);
    double Mean = 0;
    size_t Outcomes = 0;
    double T = medianSeconds([&] {
      LossDistribution L = modelImbalance(W, R.N);
      Mean = L.mean();
      Outcomes = L.outcomes().size();
    });
    double Diff = std::fabs(Mean - R.PaperMuA);
    MaxDiff = std::max(MaxDiff, Diff);
    std::printf("%-18s %3u %6zu %9.3f %9.6f %9.6f %10zu %9.4f", R.Spec, R.N, W.Mass.size(),
                R.PaperMuA, Mean, Diff, Outcomes, T);
    if (MonteCarlo) {
      // As in the unit test: 0.1% is four standard errors.
      LossDistribution L = modelImbalance(W, R.N);
      double Cv = std::sqrt(L.variance()) / L.mean();
      uint64_t Groups = uint64_t(std::ceil(std::pow(4 * Cv / 1e-3, 2)));
      auto T0 = Clock::now();
      SimulationResult S = simulateImbalance(W, R.N, Groups, 2022);
      double Relative = std::fabs(S.Mean - Mean) / Mean;
      MaxRelative = std::max(MaxRelative, Relative);
      std::printf(" %9llu %9.6f %9.4f%% %9.3f", (unsigned long long)Groups, S.Mean, 100 * Relative,
                  seconds(T0));
    }
    std::printf("\n");
  }
  std::printf("largest |model - paper mu_A| %.6f", MaxDiff);
  if (MonteCarlo)
    std::printf("; largest |model - simulated| / model %.4f%%", 100 * MaxRelative);
  std::printf("\n");

  // What a user waits for: every distribution built and all 25 rows modelled.
  double Total = medianSeconds([] {
    for (const Row &R : TableI)
      modelImbalance(parseDistribution(R.Spec, 1e-6), R.N);
  });
  std::printf("all of Table I, model only, one thread: %.3f s (median)\n\n", Total);
}

// Least-squares slope of log(time) over log(x): the empirical exponent.
double slope(const std::vector<double> &X, const std::vector<double> &Y) {
  double Mx = 0, My = 0;
  for (size_t I = 0; I < X.size(); ++I) {
    Mx += std::log(X[I]) / double(X.size());
    My += std::log(Y[I]) / double(X.size());
  }
  double Sxy = 0, Sxx = 0;
  for (size_t I = 0; I < X.size(); ++I) {
    Sxy += (std::log(X[I]) - Mx) * (std::log(Y[I]) - My);
    Sxx += (std::log(X[I]) - Mx) * (std::log(X[I]) - Mx);
  }
  return Sxy / Sxx;
}

// Times the model over uniform:1,A for each (n, A); prints one line each and
// the fitted exponent of x (n or A) over the points with x >= FitFrom.
void growth(const char *Title, const std::vector<std::pair<unsigned, unsigned>> &Points, bool OverN,
            unsigned FitFrom) {
  std::printf("== %s\n", Title);
  std::printf("%5s %6s %12s %12s %12s %10s %12s %12s\n", "n", "|supp|", "multiply-adds",
              "n|supp|^2", "outcomes", "seconds", "ns/mul-add", "ns/outcome");
  std::vector<double> X, Y;
  for (auto [N, A] : Points) {
    WorkDistribution W = parseDistribution("uniform:1," + std::to_string(A), 1e-6);
    ModelCost Cost = estimateModelCost(W, N);
    size_t Outcomes = 0;
    double T = medianSeconds([&] { Outcomes = modelImbalance(W, N).outcomes().size(); });
    double Bound = double(N) * double(A) * double(A);
    std::printf("%5u %6u %12.3g %12.3g %12zu %10.5f %12.3f %12.1f\n", N, A, Cost.MultiplyAdds,
                Bound, Outcomes, T, 1e9 * T / Cost.MultiplyAdds, 1e9 * T / Bound);
    unsigned XValue = OverN ? N : A;
    if (XValue >= FitFrom) {
      X.push_back(XValue);
      Y.push_back(T);
    }
  }
  std::printf("time grows as %s^%.2f (fit over %s >= %u)\n\n", OverN ? "n" : "|supp|", slope(X, Y),
              OverN ? "n" : "|supp|", FitFrom);
}

} // namespace

int main(int argc, char **argv) {
  bool MonteCarlo = !(argc > 1 && std::strcmp(argv[1], "--no-monte-carlo") == 0);
  std::printf("hardware threads %u\n\n", std::thread::hardware_concurrency());
  tableI(MonteCarlo);

  std::vector<std::pair<unsigned, unsigned>> OverN, OverSupport;
  for (unsigned N = 2; N <= 256; N *= 2)
    OverN.push_back({N, 64});
  for (unsigned A = 16; A <= 1024; A *= 2)
    OverSupport.push_back({32, A});
  growth("growth with n, W = uniform:1,64", OverN, true, 16);
  growth("growth with |supp W|, n = 32, W = uniform:1,|supp|", OverSupport, false, 64);
  return 0;
}
