#include "predict/BlockFit.h"
#include "predict/LeastSquares.h"

#include <algorithm>
#include <cmath>

namespace divopt {
namespace {

Eigen::MatrixXd design(const std::vector<Term> &Terms, const Observations &O) {
  Eigen::MatrixXd X(O.size(), Terms.size());
  for (size_t J = 0; J < Terms.size(); ++J) {
    const Term &T = Terms[J];
    if (T.K == Term::Kind::Intercept) {
      X.col(J).setOnes();
      continue;
    }
    const std::vector<double> &In = O.input(T.Input);
    for (size_t I = 0; I < O.size(); ++I)
      X(I, J) = T.value(In[I]);
  }
  return X;
}

Eigen::VectorXd target(const Observations &O, unsigned Block) {
  return Eigen::Map<const Eigen::VectorXd>(O.Counts[Block].data(), O.size());
}

// Distinct training values of an input but the largest (a threshold there
// splits nothing), thinned to at most Max evenly spaced ones.
std::vector<double> thresholds(const std::vector<double> &Values, unsigned Max) {
  std::vector<double> Sorted(Values);
  std::sort(Sorted.begin(), Sorted.end());
  Sorted.erase(std::unique(Sorted.begin(), Sorted.end()), Sorted.end());
  if (!Sorted.empty())
    Sorted.pop_back();
  if (Sorted.size() <= Max)
    return Sorted;
  std::vector<double> Thin;
  for (unsigned I = 0; I < Max; ++I)
    Thin.push_back(Sorted[I * (Sorted.size() - 1) / (Max - 1)]);
  Thin.erase(std::unique(Thin.begin(), Thin.end()), Thin.end());
  return Thin;
}

std::vector<Term> candidates(const std::vector<int> &Inputs, const Observations &Train,
                             unsigned MaxThresholds) {
  std::vector<Term> C;
  std::vector<int> All(Inputs);
  if (std::find(All.begin(), All.end(), TidInput) == All.end()) {
    C.push_back({Term::Kind::Linear, TidInput, 0});
    All.push_back(TidInput);
  }
  for (int In : All)
    for (double T : thresholds(Train.input(In), MaxThresholds)) {
      C.push_back({Term::Kind::Step, In, T});
      C.push_back({Term::Kind::Hinge, In, T});
    }
  return C;
}

double meanSquare(const Eigen::VectorXd &Y) {
  return Y.size() ? Y.squaredNorm() / double(Y.size()) : 0;
}

// Forward selection: the candidate that lowers the cross-validated error
// most, while one lowers it by at least Options.MinGain.
std::vector<Term> chooseTerms(std::vector<Term> Terms, const std::vector<int> &Inputs,
                              const Observations &Train, unsigned Block,
                              const BlockFitOptions &Options) {
  Eigen::VectorXd Y = target(Train, Block);
  double Exact = 1e-12 * std::max(1.0, meanSquare(Y));
  if (Train.size() < 2 * size_t(Options.Folds))
    return Terms; // too few threads to tell a real step from noise
  Eigen::MatrixXd Base = design(Terms, Train);
  double Current = crossValidatedMse(Base, Y, Options.Folds);
  if (meanSquaredError(Base, Y, fitLeastSquares(Base, Y).Coefficients) <= Exact)
    return Terms;
  std::vector<Term> Pool = candidates(Inputs, Train, Options.MaxThresholds);
  for (unsigned Round = 0; Round < Options.MaxExtraTerms && Current > Exact; ++Round) {
    double Best = Current;
    size_t BestAt = Pool.size();
    Eigen::MatrixXd X(Base.rows(), Base.cols() + 1);
    X.leftCols(Base.cols()) = Base;
    for (size_t I = 0; I < Pool.size(); ++I) {
      X.col(Base.cols()) = design({Pool[I]}, Train).col(0);
      double E = crossValidatedMse(X, Y, Options.Folds);
      if (E < Best) {
        Best = E;
        BestAt = I;
      }
    }
    // Noise alone lets almost any term shave a little off; a real step
    // shape cuts the error by far more than MinGain.
    if (BestAt == Pool.size() || (Best > Current * (1 - Options.MinGain) && Best > Exact))
      break;
    Terms.push_back(Pool[BestAt]);
    Pool.erase(Pool.begin() + BestAt);
    Base = design(Terms, Train);
    Current = Best;
  }
  return Terms;
}

double rSquared(const Eigen::VectorXd &Y, double Mse) {
  double Mean = Y.mean();
  double Var = (Y.array() - Mean).square().mean();
  if (Var == 0)
    return Mse <= 1e-12 ? 1 : 0;
  return 1 - Mse / Var;
}

} // namespace

BlockModel fitBlock(unsigned Block, const std::vector<int> &Inputs, const Observations &Train,
                    const Observations &HeldOut, const BlockFitOptions &Options) {
  BlockModel M;
  M.Block = Block;
  if (Train.size() == 0) {
    M.Why = "no training observations";
    return M;
  }
  std::vector<Term> Terms{{Term::Kind::Intercept, TidInput, 0}};
  for (int In : Inputs)
    Terms.push_back({Term::Kind::Linear, In, 0});
  Terms = chooseTerms(std::move(Terms), Inputs, Train, Block, Options);

  Eigen::MatrixXd X = design(Terms, Train);
  Eigen::VectorXd Y = target(Train, Block);
  LeastSquaresFit Fit = fitLeastSquares(X, Y);
  // A term whose share of any training count is rounding noise (2e-18*tid
  // where the count does not depend on tid) is zero: reports stay readable
  // and far-away threads do not pick up the noise.
  double Largest = std::max(1.0, Y.cwiseAbs().maxCoeff());
  for (size_t J = 0; J < Terms.size(); ++J)
    if (std::fabs(Fit.Coefficients[J]) * X.col(J).cwiseAbs().maxCoeff() <= 1e-10 * Largest)
      Fit.Coefficients[J] = 0;
  M.Predictable = true;
  for (size_t J = 0; J < Terms.size(); ++J) {
    if (!Fit.Kept[J]) {
      M.Dropped.push_back({Terms[J], Fit.DroppedWhy[J]});
      continue;
    }
    M.Terms.push_back(Terms[J]);
    M.Coefficients.push_back(Fit.Coefficients[J]);
  }
  M.Stats.Observations = Train.size();
  M.Stats.Mse = meanSquaredError(X, Y, Fit.Coefficients);
  M.Stats.R2 = rSquared(Y, M.Stats.Mse);
  M.Stats.HeldOutObservations = HeldOut.size();
  if (HeldOut.size())
    M.Stats.HeldOutMse =
        meanSquaredError(design(Terms, HeldOut), target(HeldOut, Block), Fit.Coefficients);
  return M;
}

double predictObservation(const BlockModel &M, const Observations &O, size_t I) {
  double Sum = 0;
  for (size_t J = 0; J < M.Terms.size(); ++J) {
    const Term &T = M.Terms[J];
    Sum += M.Coefficients[J] * T.value(T.K == Term::Kind::Intercept ? 0 : O.input(T.Input)[I]);
  }
  return Sum;
}

} // namespace divopt
