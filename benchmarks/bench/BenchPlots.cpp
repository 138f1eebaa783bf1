#include "BenchPlots.h"
#include "BenchAnalysis.h"
#include "BenchSvg.h"

#include <filesystem>

namespace divopt::bench {

namespace {

std::string in(const std::string &Dir, const char *File) {
  return (std::filesystem::path(Dir) / File).string();
}

std::string shortName(const std::string &Algorithm) {
  return Algorithm == "sorting" ? "S" : Algorithm == "greedy" ? "G" : "GM";
}

// One series per algorithm; a point per app that ran it correctly and was
// predicted, at (X of the app and algorithm, actual kernel-only improvement).
template <typename XOf> std::vector<ScatterSeries> perAlgorithm(const BenchResults &R, XOf X) {
  std::vector<ScatterSeries> Series;
  for (const std::string &Algo : predictedAlgorithms()) {
    ScatterSeries S{Algo, {}};
    for (const AppResult &A : R.Apps) {
      auto P = A.Predicted.Algorithms.find(Algo);
      auto N = numbersFor(A, Algo);
      if (!A.Predicted.Present || P == A.Predicted.Algorithms.end() || !N)
        continue;
      S.Points.push_back({100 * X(A, P->second), 100 * N->KernelImprovement, A.App,
                          !A.ComputeBound});
    }
    Series.push_back(std::move(S));
  }
  return Series;
}

void fig7(const std::string &Dir, const BenchResults &R) {
  ScatterPlot Warps;
  Warps.Title = "Fig. 7 analog: actual improvement vs divergent-warp improvement";
  Warps.XLabel = "divergent warps removed by the regrouping, % (from the BBVs)";
  Warps.YLabel = "actual kernel improvement, %";
  Warps.Footnote = "y = x: the metric would be exact. One point per app and algorithm.";
  Warps.Diagonal = true;
  Warps.Series = perAlgorithm(
      R, [](const AppResult &, const AlgorithmPrediction &P) { return P.DivergentWarps; });
  writeScatterSvg(in(Dir, PlotFiles::Fig7Warps), Warps);

  ScatterPlot Branches;
  Branches.Title = "Fig. 7 analog: actual improvement vs divergent-branch ratio";
  Branches.XLabel = "divergent branches / branches executed before regrouping, %";
  Branches.YLabel = "actual kernel improvement, %";
  Branches.Footnote = "A regrouped launch's branches cannot be profiled: the x axis is the "
                      "original launch's ratio.";
  Branches.Series = perAlgorithm(R, [](const AppResult &A, const AlgorithmPrediction &) {
    return A.Predicted.divergentBranchRatio();
  });
  writeScatterSvg(in(Dir, PlotFiles::Fig7Branches), Branches);
}

void fig8(const std::string &Dir, const BenchResults &R) {
  ScatterPlot P;
  P.Title = "Fig. 8 analog: actual vs predicted improvement";
  P.XLabel = "predicted improvement, %";
  P.YLabel = "actual kernel improvement, %";
  P.Footnote = "Labels: app/S (sorting), /G (greedy), /GM (greedy-max). Hollow: memory-bound "
               "(seed 002 Fig. 10). y = x: exact.";
  P.Diagonal = true;
  ScatterSeries Weighted{"BBV-weighted", {}}, Scheduled{"BBV-weighted-scheduled", {}},
      SmShared{"SM-shared", {}}, SmPipes{"SM-pipes", {}};
  for (const AppResult &A : R.Apps)
    for (const std::string &Algo : predictedAlgorithms()) {
      auto Pred = A.Predicted.Algorithms.find(Algo);
      auto N = numbersFor(A, Algo);
      if (!A.Predicted.Present || Pred == A.Predicted.Algorithms.end() || !N)
        continue;
      std::string Label = A.App + "/" + shortName(Algo);
      double Actual = 100 * N->KernelImprovement;
      Weighted.Points.push_back({100 * Pred->second.BbvWeighted, Actual, Label, !A.ComputeBound});
      Scheduled.Points.push_back(
          {100 * Pred->second.BbvWeightedScheduled, Actual, Label, !A.ComputeBound});
      if (Pred->second.BbvWeightedSmShared)
        SmShared.Points.push_back(
            {100 * *Pred->second.BbvWeightedSmShared, Actual, Label, !A.ComputeBound});
      if (Pred->second.BbvWeightedSmPipes)
        SmPipes.Points.push_back(
            {100 * *Pred->second.BbvWeightedSmPipes, Actual, Label, !A.ComputeBound});
    }
  P.Series = {Weighted, Scheduled};
  for (const ScatterSeries &S : {SmShared, SmPipes})
    if (!S.Points.empty())
      P.Series.push_back(S);
  writeScatterSvg(in(Dir, PlotFiles::Fig8), P);
}

void fig9(const std::string &Dir, const BenchResults &R) {
  BarChart C;
  C.Title = "Fig. 9 analog: speedup over the original kernel, overhead included";
  C.YLabel = "speedup (baseline median / (median + overhead))";
  C.Footnote = "Red: the variant's checksum differed from the baseline's (FAIL). "
               "-: not run. Dashed: 1x.";
  C.Series = fig9Variants(R);
  C.Reference = 1.0;
  for (const AppResult &A : R.Apps) {
    BarGroup G{A.App, {}};
    for (const std::string &V : C.Series) {
      Bar B;
      const VariantResult *Result = A.variant(V);
      if (auto N = timesAgainstBaseline(A, V); N && Result) {
        B.Value = N->Speedup;
        B.Failed = Result->State == Status::Fail;
        B.Tooltip = Result->DerivedFrom.empty() ? "" : "from " + Result->DerivedFrom;
      }
      G.Bars.push_back(B);
    }
    C.Groups.push_back(std::move(G));
  }
  BarGroup Mean{"mean", {}};
  for (const std::string &V : C.Series) {
    Bar B;
    if (auto S = speedupSummary(R, V, false))
      B.Value = S->Mean;
    Mean.Bars.push_back(B);
  }
  C.Groups.push_back(std::move(Mean));
  writeBarsSvg(in(Dir, PlotFiles::Fig9), C);
}

} // namespace

std::vector<std::string> fig9Variants(const BenchResults &R) {
  std::vector<std::string> Out;
  for (const std::string &V : variantNames()) {
    // online's overhead shows only end to end (the report's End to end section).
    if (V == "baseline" || V == "online")
      continue;
    bool Ran = V != "model";
    for (const AppResult &A : R.Apps)
      if (const VariantResult *X = A.variant(V); X && X->measured())
        Ran = true;
    if (Ran)
      Out.push_back(V);
  }
  return Out;
}

void writePlots(const std::string &Dir, const BenchResults &R) {
  fig7(Dir, R);
  fig8(Dir, R);
  fig9(Dir, R);
}

} // namespace divopt::bench
