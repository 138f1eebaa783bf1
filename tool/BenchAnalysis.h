// The numbers the report and the plots show, derived from the measurements
// alone (docs/bench.md gives each definition): speedups with and without
// divopt's overhead, seed 002's actual and predicted improvements, and the
// Table V estimation error.
#pragma once
#include "BenchResults.h"
#include "BenchStats.h"

#include <optional>
#include <string>
#include <vector>

namespace divopt::bench {

struct VariantNumbers {
  TimeSummary Times;
  double OverheadMs = 0;
  // The overhead is charged to every launch: baseline median / (median + overhead).
  double Speedup = 0;
  double KernelSpeedup = 0; // baseline median / median
  // 1 - (median + overhead) / baseline median, and the kernel-only 1 - median / baseline median.
  double Improvement = 0;
  double KernelImprovement = 0;
};

// Variant of App against its baseline; none unless both ran and the variant
// computed the baseline's result (status ok).
std::optional<VariantNumbers> numbersFor(const AppResult &App, const std::string &Variant);
// The same for any measured variant, a wrong result included (the report
// shows a FAIL's times too); none unless both were measured.
std::optional<VariantNumbers> timesAgainstBaseline(const AppResult &App,
                                                   const std::string &Variant);

// The oracle: a copy of the fastest, overhead included, of App's sorting,
// greedy and greedy-max variants that computed the right result; skipped
// with a note when none did.
VariantResult deriveOracle(const AppResult &App);

// One row of the Table V analog: an app and an algorithm that both ran and
// was predicted.
struct ErrorRow {
  std::string App, Algorithm;
  bool ComputeBound = false;
  double Actual = 0;             // kernel-only improvement
  double ActualWithOverhead = 0; // seed 002's accounting: overhead in the measurement
  AlgorithmPrediction Predicted;
  // |predicted - actual| in percentage points, against the kernel-only and
  // the overhead-included actual improvement.
  double errorWeighted() const;
  double errorScheduled() const;
  double errorScheduledRedirected() const;
  std::optional<double> errorSmShared() const; // none where not predicted
  double errorWeightedWithOverhead() const;
  double errorScheduledWithOverhead() const;
};
std::vector<ErrorRow> estimationErrors(const BenchResults &R);

struct ErrorAverage {
  size_t Rows = 0;
  double Weighted = 0, Scheduled = 0, ScheduledRedirected = 0;
  double WeightedWithOverhead = 0, ScheduledWithOverhead = 0;
  size_t SmSharedRows = 0; // rows that have the SM-shared prediction
  double SmShared = 0;
};
// The mean of each error column over Rows (only compute-bound apps' rows when
// asked); none for no rows.
std::optional<ErrorAverage> averageError(const std::vector<ErrorRow> &Rows,
                                         bool ComputeBoundOnly);

// Fig. 9: the speedup, overhead included, of Variant in every app where it
// ran correctly; its arithmetic mean (seed 002's "on average") and geometric mean.
struct SpeedupSummary {
  size_t Apps = 0;
  double Mean = 0, GeometricMean = 0, Max = 0;
};
std::optional<SpeedupSummary> speedupSummary(const BenchResults &R, const std::string &Variant,
                                             bool KernelOnly);

} // namespace divopt::bench
