// Seed 001 Table I: the modelled mean loss mu_A of all 25 rows to three
// decimals, and the model against a Monte Carlo simulation within 0.1% on
// every row (the paper's claim), epsilon = 1e-6 as in the paper.
#include "imbalance/DistributionSpec.h"
#include "imbalance/ImbalanceModel.h"
#include "imbalance/MonteCarlo.h"

#include <gtest/gtest.h>

#include <cmath>
#include <ostream>
#include <string>
#include <vector>

namespace divopt::imbalance {
namespace {

struct TableRow {
  unsigned N;
  double MuA;
};

struct TableDistribution {
  const char *Spec;
  std::vector<TableRow> Rows;
};

const TableDistribution TableIDistributions[] = {
    {"binomial:40,0.5", {{2, 1.090}, {4, 1.163}, {8, 1.225}, {16, 1.278}, {32, 1.325}}},
    {"geometric:0.05", {{2, 1.476}, {4, 2.047}, {8, 2.668}, {16, 3.317}, {32, 3.979}}},
    {"poisson:30", {{2, 1.104}, {4, 1.191}, {8, 1.268}, {16, 1.335}, {32, 1.397}}},
    {"uniform:20,40", {{2, 1.118}, {4, 1.213}, {8, 1.275}, {16, 1.309}, {32, 1.326}}},
    {"negbinomial:5,0.3", {{2, 1.301}, {4, 1.587}, {8, 1.860}, {16, 2.123}, {32, 2.375}}},
};

// Test names and failures show the distribution, not the struct's bytes.
void PrintTo(const TableDistribution &D, std::ostream *OS) { *OS << D.Spec; }

class TableI : public ::testing::TestWithParam<TableDistribution> {};

TEST_P(TableI, ModelledMeanToThreeDecimals) {
  WorkDistribution W = parseDistribution(GetParam().Spec, 1e-6);
  for (const TableRow &Row : GetParam().Rows) {
    LossDistribution L = modelImbalance(W, Row.N);
    EXPECT_NEAR(L.mean(), Row.MuA, 0.0005) << GetParam().Spec << " n=" << Row.N;
    EXPECT_NEAR(L.totalMass(), 1.0, 1e-12);
  }
}

// Enough groups that 0.1% is four standard errors, from the model's own
// coefficient of variation: 20k to 1.1M groups per row. The seed is fixed;
// the margin keeps the test passing where the standard library draws
// differently.
TEST_P(TableI, MonteCarloAgreesWithinOneInAThousand) {
  WorkDistribution W = parseDistribution(GetParam().Spec, 1e-6);
  for (const TableRow &Row : GetParam().Rows) {
    LossDistribution L = modelImbalance(W, Row.N);
    double Cv = std::sqrt(L.variance()) / L.mean();
    uint64_t Groups = uint64_t(std::ceil(std::pow(4 * Cv / 1e-3, 2)));
    SimulationResult S = simulateImbalance(W, Row.N, Groups, 2022);
    double Relative = std::fabs(S.Mean - L.mean()) / L.mean();
    EXPECT_LT(Relative, 1e-3) << GetParam().Spec << " n=" << Row.N << ": model " << L.mean()
                              << ", simulated " << S.Mean << " over " << Groups << " groups";
  }
}

INSTANTIATE_TEST_SUITE_P(Seed001, TableI, ::testing::ValuesIn(TableIDistributions),
                         [](const ::testing::TestParamInfo<TableDistribution> &Info) {
                           std::string Name = Info.param.Spec;
                           return Name.substr(0, Name.find(':'));
                         });

} // namespace
} // namespace divopt::imbalance
