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
  std::optional<double> errorSmPipes() const;
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
  size_t SmPipesRows = 0; // and the SM-pipes one
  double SmPipes = 0;
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

// The End to end section: the online variant against the baseline, both run
// with --end-to-end (the host wall time of the first `repeat` launches, every
// overhead included), beside the gains the forced algorithms reach.
struct EndToEndRow {
  std::string App;
  std::optional<double> OffMs, OnlineMs; // the end_to_end_ms of baseline and online
  // OffMs / OnlineMs; none unless both were timed and online computed the
  // baseline's result (Missing says why).
  std::optional<double> Speedup;
  std::string Missing;
  std::optional<double> KernelSpeedup; // online: baseline median / online median
  // The largest kernel-only speedup (baseline median / median) of sorting,
  // greedy and greedy-max among those that computed the right result.
  std::optional<double> BestForced;
  std::string BestForcedAlgorithm;
  // Speedup / BestForced, where BestForced >= EndToEndTargets::ShareFrom.
  std::optional<double> Share;
};

// The targets for the online e2e speedups.
struct EndToEndTargets {
  static constexpr double Mean = 1.75;
  static constexpr double GeometricMean = 1.4;
  static constexpr double ShareFrom = 1.2; // the share target applies from this best forced gain
  static constexpr double Share = 0.9;
  static constexpr double Floor = 0.98;
};

// One row per app that was measured (no app error), in results order; empty
// when no app has an online variant that ran (skipped, or results from before
// it).
std::vector<EndToEndRow> endToEndRows(const BenchResults &R);

struct EndToEndSummary {
  size_t Apps = 0;             // rows with a Speedup: what the statistics are over
  double Mean = 0, GeometricMean = 0, Min = 0;
  std::string MinApp;
  bool MeanMet = false, GeometricMeanMet = false;
  // Rows with a Speedup whose BestForced >= ShareFrom and Share < Share target,
  // and rows below the floor.
  std::vector<std::string> BelowShare, BelowFloor;
  size_t ShareApps = 0;        // rows the share target applies to
  std::vector<std::string> Missing; // rows without a Speedup: "app (why)"
  bool shareMet() const { return BelowShare.empty(); }
  bool floorMet() const { return BelowFloor.empty(); }
  bool complete() const { return Missing.empty(); }
  bool allMet() const {
    return MeanMet && GeometricMeanMet && shareMet() && floorMet() && complete();
  }
};
// None when no row has a Speedup.
std::optional<EndToEndSummary> endToEndSummary(const std::vector<EndToEndRow> &Rows);

} // namespace divopt::bench
