// The input of the binomial app: a book of American puts, one per thread, and
// each one's tree. Maturities are lognormal (median 0.2 years, sigma 0.9,
// clamped to [1/16, 2] years) like a book where near expiries hold most of
// the contracts; the tree takes 256 steps a year, rounded up to a multiple of
// Levels, so N runs from 16 to 512 (median 64) and the work, about N^2 / 2,
// from ~200 to ~130,000 node updates: a warp waits for its longest maturity.
// Spot, moneyness, volatility and rate are uniform over usual ranges.
//
// The tree's parameters (u, d and the discounted probabilities) are computed
// here once per option with the host's exp and sqrt and passed to the
// kernel, so the GPU and the CPU reference start from the same doubles.
#pragma once

#include "../common/Random.h"
#include "BinomialTree.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace binomial {

constexpr double StepsPerYear = 256;
constexpr double MedianMaturity = 0.2, MaturitySigma = 0.9; // years
constexpr double MinMaturity = 1.0 / 16, MaxMaturity = 2;

inline std::vector<Option> generateOptions(uint32_t N, uint64_t Seed) {
  bench::Rng Random(Seed);
  std::vector<Option> Book(N);
  for (Option &O : Book) {
    // fma: the same inputs whether or not the host compiler contracts.
    O.Spot = std::fma(100, Random.uniform01(), 50);
    O.Strike = O.Spot * std::exp(std::fma(0.6, Random.uniform01(), -0.3));
    const double Volatility = std::fma(0.5, Random.uniform01(), 0.1);
    const double Rate = 0.08 * Random.uniform01();
    const double Maturity =
        std::clamp(std::exp(std::fma(MaturitySigma, Random.normal(), std::log(MedianMaturity))),
                   MinMaturity, MaxMaturity);
    O.Steps = Levels * uint32_t(std::ceil(StepsPerYear * Maturity / Levels));
    const double Dt = Maturity / O.Steps;
    O.Up = std::exp(Volatility * std::sqrt(Dt));
    O.Down = 1 / O.Up;
    const double Discount = std::exp(-Rate * Dt);
    const double P = (1 / Discount - O.Down) / (O.Up - O.Down); // risk-neutral up move
    O.DiscUp = Discount * P;
    O.DiscDown = Discount * (1 - P);
  }
  return Book;
}

} // namespace binomial
