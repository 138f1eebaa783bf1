#include "BenchAnalysis.h"

#include <algorithm>
#include <cmath>

namespace divopt::bench {

std::optional<VariantNumbers> timesAgainstBaseline(const AppResult &App,
                                                   const std::string &Variant) {
  const VariantResult *Base = App.variant("baseline");
  const VariantResult *V = App.variant(Variant);
  if (!Base || !V || !Base->measured() || !V->measured())
    return std::nullopt;
  double Before = summarizeTimes(Base->TimesMs).Median;
  VariantNumbers N;
  N.Times = summarizeTimes(V->TimesMs);
  N.OverheadMs = V->OverheadMs;
  if (!(Before > 0) || !(N.Times.Median > 0))
    return std::nullopt;
  double Charged = N.Times.Median + N.OverheadMs;
  N.Speedup = speedup(Before, Charged);
  N.KernelSpeedup = speedup(Before, N.Times.Median);
  N.Improvement = improvement(Before, Charged);
  N.KernelImprovement = improvement(Before, N.Times.Median);
  return N;
}

std::optional<VariantNumbers> numbersFor(const AppResult &App, const std::string &Variant) {
  const VariantResult *Base = App.variant("baseline");
  const VariantResult *V = App.variant(Variant);
  if (!Base || !V || Base->State != Status::Ok || V->State != Status::Ok)
    return std::nullopt;
  return timesAgainstBaseline(App, Variant);
}

VariantResult deriveOracle(const AppResult &App) {
  VariantResult Oracle;
  Oracle.Name = "oracle";
  std::optional<double> Best;
  for (const std::string &Name : predictedAlgorithms()) {
    auto N = numbersFor(App, Name);
    if (!N || (Best && N->Speedup <= *Best))
      continue;
    Best = N->Speedup;
    const VariantResult &From = *App.variant(Name);
    Oracle.TimesMs = From.TimesMs;
    Oracle.Checksum = From.Checksum;
    Oracle.OverheadMs = From.OverheadMs;
    Oracle.Regrouped = From.Regrouped;
    Oracle.DerivedFrom = Name;
  }
  if (!Best) {
    Oracle.State = Status::Skipped;
    Oracle.Note = "no regrouping algorithm ran correctly";
  } else {
    Oracle.Note = "the fastest of sorting, greedy, greedy-max: " + Oracle.DerivedFrom;
  }
  return Oracle;
}

namespace {
double points(double Predicted, double Actual) { return 100 * std::fabs(Predicted - Actual); }
} // namespace

double ErrorRow::errorWeighted() const { return points(Predicted.BbvWeighted, Actual); }
double ErrorRow::errorScheduled() const { return points(Predicted.BbvWeightedScheduled, Actual); }
double ErrorRow::errorScheduledRedirected() const {
  return points(Predicted.BbvWeightedScheduledRedirected, Actual);
}
std::optional<double> ErrorRow::errorSmShared() const {
  if (!Predicted.BbvWeightedSmShared)
    return std::nullopt;
  return points(*Predicted.BbvWeightedSmShared, Actual);
}
double ErrorRow::errorWeightedWithOverhead() const {
  return points(Predicted.BbvWeighted, ActualWithOverhead);
}
double ErrorRow::errorScheduledWithOverhead() const {
  return points(Predicted.BbvWeightedScheduled, ActualWithOverhead);
}

std::vector<ErrorRow> estimationErrors(const BenchResults &R) {
  std::vector<ErrorRow> Rows;
  for (const AppResult &A : R.Apps) {
    if (!A.Predicted.Present)
      continue;
    for (const std::string &Algo : predictedAlgorithms()) {
      auto P = A.Predicted.Algorithms.find(Algo);
      auto N = numbersFor(A, Algo);
      if (P == A.Predicted.Algorithms.end() || !N)
        continue;
      ErrorRow Row;
      Row.App = A.App;
      Row.Algorithm = Algo;
      Row.ComputeBound = A.ComputeBound;
      Row.Actual = N->KernelImprovement;
      Row.ActualWithOverhead = N->Improvement;
      Row.Predicted = P->second;
      Rows.push_back(Row);
    }
  }
  return Rows;
}

std::optional<ErrorAverage> averageError(const std::vector<ErrorRow> &Rows,
                                         bool ComputeBoundOnly) {
  ErrorAverage A;
  for (const ErrorRow &Row : Rows) {
    if (ComputeBoundOnly && !Row.ComputeBound)
      continue;
    ++A.Rows;
    A.Weighted += Row.errorWeighted();
    A.Scheduled += Row.errorScheduled();
    A.ScheduledRedirected += Row.errorScheduledRedirected();
    A.WeightedWithOverhead += Row.errorWeightedWithOverhead();
    A.ScheduledWithOverhead += Row.errorScheduledWithOverhead();
    if (auto E = Row.errorSmShared()) {
      ++A.SmSharedRows;
      A.SmShared += *E;
    }
  }
  if (A.Rows == 0)
    return std::nullopt;
  for (double *X : {&A.Weighted, &A.Scheduled, &A.ScheduledRedirected, &A.WeightedWithOverhead,
                    &A.ScheduledWithOverhead})
    *X /= double(A.Rows);
  if (A.SmSharedRows)
    A.SmShared /= double(A.SmSharedRows);
  return A;
}

std::optional<SpeedupSummary> speedupSummary(const BenchResults &R, const std::string &Variant,
                                             bool KernelOnly) {
  std::vector<double> All;
  for (const AppResult &A : R.Apps)
    if (auto N = numbersFor(A, Variant))
      All.push_back(KernelOnly ? N->KernelSpeedup : N->Speedup);
  if (All.empty())
    return std::nullopt;
  return SpeedupSummary{All.size(), mean(All), geometricMean(All),
                        *std::max_element(All.begin(), All.end())};
}

} // namespace divopt::bench
