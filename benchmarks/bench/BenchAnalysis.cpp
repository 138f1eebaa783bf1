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
std::optional<double> ErrorRow::errorSmPipes() const {
  if (!Predicted.BbvWeightedSmPipes)
    return std::nullopt;
  return points(*Predicted.BbvWeightedSmPipes, Actual);
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
    if (auto E = Row.errorSmPipes()) {
      ++A.SmPipesRows;
      A.SmPipes += *E;
    }
  }
  if (A.Rows == 0)
    return std::nullopt;
  for (double *X : {&A.Weighted, &A.Scheduled, &A.ScheduledRedirected, &A.WeightedWithOverhead,
                    &A.ScheduledWithOverhead})
    *X /= double(A.Rows);
  if (A.SmSharedRows)
    A.SmShared /= double(A.SmSharedRows);
  if (A.SmPipesRows)
    A.SmPipes /= double(A.SmPipesRows);
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

std::vector<EndToEndRow> endToEndRows(const BenchResults &R) {
  bool AnyOnline = false;
  for (const AppResult &A : R.Apps)
    if (const VariantResult *V = A.variant("online"); V && V->measured())
      AnyOnline = true;
  std::vector<EndToEndRow> Rows;
  if (!AnyOnline)
    return Rows;
  for (const AppResult &A : R.Apps) {
    const VariantResult *Base = A.variant("baseline");
    if (!A.Error.empty() || !Base)
      continue;
    EndToEndRow Row;
    Row.App = A.App;
    Row.OffMs = Base->EndToEndMs;
    const VariantResult *Online = A.variant("online");
    if (Online)
      Row.OnlineMs = Online->EndToEndMs;
    if (!Online)
      Row.Missing = "online not run";
    else if (Online->State == Status::Fail)
      Row.Missing = "online FAIL: wrong result";
    else if (Online->State != Status::Ok)
      Row.Missing = "online " + statusName(Online->State);
    else if (!Row.OffMs || !(*Row.OffMs > 0))
      Row.Missing = "no baseline end-to-end time";
    else if (!Row.OnlineMs || !(*Row.OnlineMs > 0))
      Row.Missing = "no online end-to-end time";
    else
      Row.Speedup = speedup(*Row.OffMs, *Row.OnlineMs);
    if (auto N = numbersFor(A, "online"))
      Row.KernelSpeedup = N->KernelSpeedup;
    for (const std::string &Algo : predictedAlgorithms())
      if (auto N = numbersFor(A, Algo); N && (!Row.BestForced || N->KernelSpeedup > *Row.BestForced)) {
        Row.BestForced = N->KernelSpeedup;
        Row.BestForcedAlgorithm = Algo;
      }
    if (Row.Speedup && Row.BestForced && *Row.BestForced >= EndToEndTargets::ShareFrom)
      Row.Share = *Row.Speedup / *Row.BestForced;
    Rows.push_back(std::move(Row));
  }
  return Rows;
}

std::optional<EndToEndSummary> endToEndSummary(const std::vector<EndToEndRow> &Rows) {
  EndToEndSummary S;
  std::vector<double> All;
  for (const EndToEndRow &Row : Rows) {
    if (!Row.Speedup) {
      S.Missing.push_back(Row.App + " (" + Row.Missing + ")");
      continue;
    }
    All.push_back(*Row.Speedup);
    if (All.size() == 1 || *Row.Speedup < S.Min) {
      S.Min = *Row.Speedup;
      S.MinApp = Row.App;
    }
    if (*Row.Speedup < EndToEndTargets::Floor)
      S.BelowFloor.push_back(Row.App);
    if (Row.Share) {
      ++S.ShareApps;
      if (*Row.Share < EndToEndTargets::Share)
        S.BelowShare.push_back(Row.App);
    }
  }
  if (All.empty())
    return std::nullopt;
  S.Apps = All.size();
  S.Mean = mean(All);
  S.GeometricMean = geometricMean(All);
  S.MeanMet = S.Mean >= EndToEndTargets::Mean;
  S.GeometricMeanMet = S.GeometricMean >= EndToEndTargets::GeometricMean;
  return S;
}

} // namespace divopt::bench
