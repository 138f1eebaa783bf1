// Least squares with a rank-revealing QR (Eigen's ColPivHouseholderQR, never
// the normal equations, which square the condition number). Columns are
// taken in order and one that adds no rank to those before it is dropped, so
// the intercept and the notes' features win over later terms.
#pragma once
#include <Eigen/Dense>

#include <string>
#include <vector>

namespace divopt {

struct LeastSquaresFit {
  std::vector<double> Coefficients; // one per column of X; 0 for dropped columns
  std::vector<bool> Kept;
  std::vector<std::string> DroppedWhy; // per column; empty when kept
};

// Minimizes |X b - Y|. Never throws on a singular or underdetermined X: the
// columns it cannot determine are dropped and say why.
LeastSquaresFit fitLeastSquares(const Eigen::MatrixXd &X, const Eigen::VectorXd &Y);

// Mean of squared residuals.
double meanSquaredError(const Eigen::MatrixXd &X, const Eigen::VectorXd &Y,
                        const std::vector<double> &Coefficients);

// K-fold cross-validated mean squared error (row i in fold i % Folds): how a
// set of terms predicts observations it was not fitted on.
double crossValidatedMse(const Eigen::MatrixXd &X, const Eigen::VectorXd &Y, unsigned Folds);

} // namespace divopt
