#include "predict/LeastSquares.h"

#include <cmath>
#include <limits>

namespace divopt {
namespace {

// Columns are scaled to unit norm first, so the rank threshold compares
// directions, not magnitudes (a thread id reaches 10^6, an indicator is 0/1).
constexpr double RankThreshold = 1e-9;

Eigen::VectorXd unitScale(const Eigen::MatrixXd &X) {
  Eigen::VectorXd Scale(X.cols());
  for (Eigen::Index J = 0; J < X.cols(); ++J) {
    double N = X.col(J).norm();
    Scale(J) = N > 0 ? 1 / N : 0;
  }
  return Scale;
}

Eigen::Index rankOf(const Eigen::MatrixXd &Scaled) {
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> Qr(Scaled);
  Qr.setThreshold(RankThreshold);
  return Qr.rank();
}

// Solves with the full-rank columns given; coefficients in X's units.
Eigen::VectorXd solve(const Eigen::MatrixXd &X, const Eigen::VectorXd &Y) {
  Eigen::VectorXd Scale = unitScale(X);
  Eigen::MatrixXd Scaled = X * Scale.asDiagonal();
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> Qr(Scaled);
  Qr.setThreshold(RankThreshold);
  Eigen::VectorXd B = Qr.solve(Y);
  return B.cwiseProduct(Scale);
}

std::string whyDropped(const Eigen::VectorXd &Column, Eigen::Index Rows, Eigen::Index Kept) {
  if (Rows <= Kept)
    return "fewer observations (" + std::to_string(Rows) + ") than terms";
  if (Column.cwiseAbs().maxCoeff() == 0)
    return "zero in every training observation";
  if ((Column.array() == Column(0)).all())
    return "constant in the training data (the intercept covers it)";
  return "a linear combination of the terms before it in the training data";
}

} // namespace

LeastSquaresFit fitLeastSquares(const Eigen::MatrixXd &X, const Eigen::VectorXd &Y) {
  LeastSquaresFit Fit;
  Eigen::Index Cols = X.cols(), Rows = X.rows();
  Fit.Coefficients.assign(Cols, 0);
  Fit.Kept.assign(Cols, false);
  Fit.DroppedWhy.assign(Cols, "");
  Eigen::VectorXd Scale = unitScale(X);
  std::vector<Eigen::Index> Kept;
  for (Eigen::Index J = 0; J < Cols; ++J) {
    Eigen::MatrixXd Trial(Rows, Kept.size() + 1);
    for (size_t I = 0; I < Kept.size(); ++I)
      Trial.col(I) = X.col(Kept[I]) * Scale(Kept[I]);
    Trial.col(Kept.size()) = X.col(J) * Scale(J);
    if (Scale(J) > 0 && Rows > Eigen::Index(Kept.size()) &&
        rankOf(Trial) == Eigen::Index(Kept.size()) + 1) {
      Kept.push_back(J);
      Fit.Kept[J] = true;
    } else {
      Fit.DroppedWhy[J] = whyDropped(X.col(J), Rows, Kept.size());
    }
  }
  if (Kept.empty())
    return Fit;
  Eigen::MatrixXd Used(Rows, Kept.size());
  for (size_t I = 0; I < Kept.size(); ++I)
    Used.col(I) = X.col(Kept[I]);
  Eigen::VectorXd B = solve(Used, Y);
  for (size_t I = 0; I < Kept.size(); ++I)
    Fit.Coefficients[Kept[I]] = B(I);
  return Fit;
}

double meanSquaredError(const Eigen::MatrixXd &X, const Eigen::VectorXd &Y,
                        const std::vector<double> &Coefficients) {
  if (X.rows() == 0)
    return std::numeric_limits<double>::quiet_NaN();
  Eigen::VectorXd B = Eigen::Map<const Eigen::VectorXd>(Coefficients.data(), Coefficients.size());
  return (X * B - Y).squaredNorm() / double(X.rows());
}

double crossValidatedMse(const Eigen::MatrixXd &X, const Eigen::VectorXd &Y, unsigned Folds) {
  double Sum = 0;
  Eigen::Index Rows = X.rows();
  for (unsigned F = 0; F < Folds; ++F) {
    Eigen::Index Test = 0;
    for (Eigen::Index I = F; I < Rows; I += Folds)
      ++Test;
    Eigen::MatrixXd TrainX(Rows - Test, X.cols()), TestX(Test, X.cols());
    Eigen::VectorXd TrainY(Rows - Test), TestY(Test);
    Eigen::Index A = 0, B = 0;
    for (Eigen::Index I = 0; I < Rows; ++I) {
      if (I % Folds == F) {
        TestX.row(B) = X.row(I);
        TestY(B++) = Y(I);
      } else {
        TrainX.row(A) = X.row(I);
        TrainY(A++) = Y(I);
      }
    }
    Eigen::VectorXd Beta = solve(TrainX, TrainY);
    Sum += (TestX * Beta - TestY).squaredNorm();
  }
  return Sum / double(Rows);
}

} // namespace divopt
