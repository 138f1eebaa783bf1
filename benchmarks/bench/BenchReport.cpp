#include "BenchReport.h"
#include "BenchAnalysis.h"
#include "BenchPlan.h"
#include "BenchPlots.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace divopt::bench {

namespace {

const char *const RedFail = "🔴 **FAIL**";

std::string fixed(double X, int Decimals) {
  char Buf[48];
  std::snprintf(Buf, sizeof Buf, "%.*f", Decimals, X);
  return Buf;
}

std::string ms(double X) { return fixed(X, X < 1 ? 4 : 3); }
std::string times(double X) { return fixed(X, 2) + "x"; }
std::string percent(double Fraction) { return fixed(100 * Fraction, 1); }

// Markdown table cells may not hold '|' or line breaks.
std::string cell(std::string S) {
  for (char &C : S)
    if (C == '|' || C == '\n')
      C = C == '|' ? '/' : ' ';
  return S;
}

std::string statusCell(const VariantResult &V) {
  return V.State == Status::Fail ? RedFail : statusName(V.State);
}

void provenance(std::ostream &OS, const BenchResults &R) {
  const Provenance &P = R.Prov;
  OS << "# divopt bench: " << P.Device << "\n\n"
     << "| | |\n|---|---|\n"
     << "| device | " << cell(P.Device) << " (compute capability " << P.ComputeCapability
     << ", " << P.SMs << " SMs) |\n"
     << "| driver | " << cell(P.Driver) << " |\n"
     << "| SM clock | " << cell(P.SmClock) << " |\n"
     << "| commit | " << cell(P.Commit) << " |\n"
     << "| date | " << cell(P.Date) << " |\n"
     << "| command | `" << cell(P.Command) << "` |\n"
     << "| timed launches per variant | " << P.Repeat << " (after 3 warm-ups) |\n"
     << "| size scale | " << fixed(P.SizeScale, 3) << " |\n\n";
}

void resultCheck(std::ostream &OS, const BenchResults &R) {
  OS << "## Result check\n\n";
  unsigned Checked = 0;
  for (const AppResult &A : R.Apps) {
    if (!A.Error.empty())
      OS << "- **error** " << A.App << ": " << A.Error << "\n";
    for (const VariantResult &V : A.Variants) {
      if (V.State == Status::Fail)
        OS << "- " << RedFail << " " << A.App << " " << V.Name << ": " << V.Note << "\n";
      else if (V.State == Status::Error)
        OS << "- **error** " << A.App << " " << V.Name << ": " << V.Note << "\n";
      Checked += V.State == Status::Ok && V.Name != "baseline" && V.DerivedFrom.empty();
    }
  }
  if (R.failures() == 0 && R.errors() == 0)
    OS << "Every variant that ran (" << Checked
       << ") computed the baseline's checksum bit for bit; every baseline passed its CPU check.\n";
  else
    OS << "\n" << R.failures() << " variant(s) computed a different result, " << R.errors()
       << " could not run.\n";
  OS << "\n";
}

void kernelTimes(std::ostream &OS, const BenchResults &R) {
  OS << "## Kernel times\n\n"
     << "Medians over the timed launches; IQR = interquartile range. Speedup = baseline median / "
        "(median + overhead), the overhead charged to every launch; kernel-only leaves it out.\n\n";
  for (const AppResult &A : R.Apps) {
    if (!A.Error.empty()) {
      OS << "### " << A.App << "\n\nNot measured: " << A.Error << "\n\n";
      continue;
    }
    OS << "### " << A.App << (A.ComputeBound ? " (compute-bound)" : " (memory-bound)") << "\n\n";
    OS << "`" << A.Kernel << "`, " << A.Threads << " threads, size " << A.Size << ", seed "
       << A.Seed << ".\n\n"
       << "| variant | status | median ms | IQR ms | min ms | max ms | overhead ms | speedup | "
          "kernel-only | note |\n"
       << "|---|---|--:|--:|--:|--:|--:|--:|--:|---|\n";
    for (const VariantResult &V : A.Variants) {
      OS << "| " << V.Name << " | " << statusCell(V) << " | ";
      if (V.measured()) {
        TimeSummary T = summarizeTimes(V.TimesMs);
        OS << ms(T.Median) << " | " << ms(T.iqr()) << " | " << ms(T.Min) << " | " << ms(T.Max)
           << " | " << ms(V.OverheadMs) << " | ";
        auto N = timesAgainstBaseline(A, V.Name);
        if (N && V.Name == "online") // its overhead is only in the end-to-end time
          OS << "- | " << times(N->KernelSpeedup) << " | ";
        else if (N && V.Name != "baseline")
          OS << times(N->Speedup) << " | " << times(N->KernelSpeedup) << " | ";
        else
          OS << " | | ";
      } else {
        OS << "| | | | | | | ";
      }
      OS << cell(V.PredictionCheck.empty() ? V.Note
                                           : V.Note + "; BBVs predicted for seed 1: " +
                                                 V.PredictionCheck)
         << " |\n";
    }
    OS << "\n";
    // Seed 002 section VI: what predicted BBVs keep of the speedup exact ones
    // (the profile of the same input, `auto`) give.
    auto Model = timesAgainstBaseline(A, "model"), Exact = timesAgainstBaseline(A, "auto");
    // A share of a slowdown means nothing: then both are given as they are.
    if (Model && Exact && Exact->Speedup > 1)
      OS << "Predicted BBVs (model) reach " << times(Model->Speedup) << " of the exact BBVs' (auto) "
         << times(Exact->Speedup) << ": " << std::lround(100 * Model->Speedup / Exact->Speedup)
         << "% of that speedup.\n\n";
    else if (Model && Exact)
      OS << "Exact BBVs (auto) do not speed this app up here (" << times(Exact->Speedup)
         << ", overhead included); predicted BBVs (model): " << times(Model->Speedup) << ".\n\n";
    for (const std::string &N : A.Notes)
      OS << "- " << N << "\n";
    if (!A.Notes.empty())
      OS << "\n";
  }
}

void tableV(std::ostream &OS, const BenchResults &R) {
  std::vector<ErrorRow> Rows = estimationErrors(R);
  auto orDash = [](std::optional<double> X, bool Percent) {
    return X ? (Percent ? percent(*X) : fixed(*X, 1)) : std::string("-");
  };
  OS << "## Table V analog: estimation error\n\n"
        "Error = |predicted improvement - actual improvement| in percentage points, per app and "
        "algorithm. Actual: kernel-only (the model predicts the kernel). \"sched. + redir.\" "
        "adds the price of reading D; \"SM-shared\" runs an SM's resident warps side by side "
        "under its issue limit; \"SM-pipes\" adds each pipe's throughput, the memory lines "
        "a layout's warps touch and the sectors they bring from L2 (docs/model.md; none of "
        "the three is in seed 002). "
        "\"+ overhead\": the "
        "actual improvement with the runtime's decision time charged per launch, as seed 002 "
        "measured.\n\n"
        "| app | algorithm | actual % | predicted BBV-weighted % | predicted "
        "BBV-weighted-scheduled % | predicted SM-shared % | predicted SM-pipes % | error "
        "BBV-weighted | error BBV-weighted-scheduled | error sched. + redir. | error SM-shared | "
        "error SM-pipes | actual + overhead % | error BBV-weighted (+ overhead) | error "
        "BBV-weighted-scheduled (+ overhead) |\n"
        "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n";
  for (const ErrorRow &E : Rows)
    OS << "| " << E.App << (E.ComputeBound ? "" : " (memory-bound)") << " | " << E.Algorithm
       << " | " << percent(E.Actual) << " | " << percent(E.Predicted.BbvWeighted) << " | "
       << percent(E.Predicted.BbvWeightedScheduled) << " | "
       << orDash(E.Predicted.BbvWeightedSmShared, true) << " | "
       << orDash(E.Predicted.BbvWeightedSmPipes, true) << " | " << fixed(E.errorWeighted(), 1)
       << " | " << fixed(E.errorScheduled(), 1) << " | " << fixed(E.errorScheduledRedirected(), 1)
       << " | " << orDash(E.errorSmShared(), false) << " | " << orDash(E.errorSmPipes(), false)
       << " | " << percent(E.ActualWithOverhead)
       << " | " << fixed(E.errorWeightedWithOverhead(), 1) << " | "
       << fixed(E.errorScheduledWithOverhead(), 1) << " |\n";
  for (bool ComputeOnly : {true, false}) {
    auto Avg = averageError(Rows, ComputeOnly);
    OS << "| **average error, " << (ComputeOnly ? "compute-bound apps" : "all apps") << "** | "
       << (Avg ? std::to_string(Avg->Rows) + " rows" : "no rows") << " | | | | | | ";
    if (Avg)
      OS << "**" << fixed(Avg->Weighted, 1) << "** | **" << fixed(Avg->Scheduled, 1) << "** | "
         << fixed(Avg->ScheduledRedirected, 1) << " | "
         << (Avg->SmSharedRows ? "**" + fixed(Avg->SmShared, 1) + "**" : std::string("-"))
         << " | " << (Avg->SmPipesRows ? "**" + fixed(Avg->SmPipes, 1) + "**" : std::string("-"))
         << " | | " << fixed(Avg->WeightedWithOverhead, 1) << " | "
         << fixed(Avg->ScheduledWithOverhead, 1) << " |\n";
    else
      OS << "| | | | | | | | |\n";
  }
  OS << "\nSeed 002 (GTX480, compute-bound apps): BBV-weighted 12.7, BBV-weighted-scheduled "
        "6.2.\n\n";
}

// Table V's mean errors by when each app joined the suite (issue 16: the
// model's error on apps added after its constants were frozen, apart from
// those it was built on), and the rows whose SM-pipes prediction has the
// wrong sign.
void errorByFreeze(std::ostream &OS, const BenchResults &R) {
  constexpr double SignThreshold = 0.05; // issue 16: signs count where |actual| >= 5%
  std::map<std::pair<unsigned, bool>, std::vector<ErrorRow>> Groups; // (group, memory-bound)
  for (const ErrorRow &E : estimationErrors(R))
    if (std::optional<unsigned> G = freezeGroup(E.App))
      Groups[{*G, !E.ComputeBound}].push_back(E);
  if (Groups.size() < 2)
    return;
  OS << "### Error by freeze\n\n"
        "The rows above, by when their app joined the suite: the twelve the model was first "
        "built on, then the four added after each freeze of its constants, which it had not "
        "seen when it was frozen (issue 16). Mean error in points; \"wrong signs\": rows whose "
        "SM-pipes prediction has the other sign than a measured change of 5% or more.\n\n"
        "| apps | bound | rows | BBV-weighted | BBV-weighted-scheduled | SM-shared | SM-pipes | "
        "SM-pipes wrong signs |\n|---|---|--:|--:|--:|--:|--:|---|\n";
  for (const auto &[Key, Rows] : Groups) {
    std::optional<ErrorAverage> Avg = averageError(Rows, false);
    std::string Wrong;
    for (const ErrorRow &E : Rows) {
      std::optional<double> Pipes = E.Predicted.BbvWeightedSmPipes;
      if (Pipes && std::fabs(E.Actual) >= SignThreshold && (*Pipes > 0) != (E.Actual > 0))
        Wrong += (Wrong.empty() ? "" : ", ") + E.App + " " + E.Algorithm;
    }
    OS << "| "
       << (Key.first ? "added after freeze " + std::to_string(Key.first) : "the first twelve")
       << " | " << (Key.second ? "memory" : "compute") << " | " << Avg->Rows << " | "
       << fixed(Avg->Weighted, 1) << " | " << fixed(Avg->Scheduled, 1) << " | "
       << (Avg->SmSharedRows ? fixed(Avg->SmShared, 1) : "-") << " | "
       << (Avg->SmPipesRows ? fixed(Avg->SmPipes, 1) : "-") << " | "
       << (Wrong.empty() ? "none" : Wrong) << " |\n";
  }
  OS << "\n";
}

// SM-pipes term by term: SM-shared (latency and the issue slots), then the
// dependence chains, the pipes, the memory lines (SM-pipes itself), beside
// the measurement. Results from before the chains show "-" there.
void smPipesTerms(std::ostream &OS, const BenchResults &R) {
  std::vector<ErrorRow> Rows = estimationErrors(R);
  bool Any = false;
  for (const ErrorRow &E : Rows)
    Any |= E.Predicted.BbvWeightedSmPipesWithoutLines.has_value();
  if (!Any)
    return;
  OS << "### SM-pipes by term\n\n"
        "Predicted improvement as each term of SM-pipes joins (docs/model.md): SM-shared's "
        "latency and issue slots, then each block's latency as its longest dependence chain, "
        "then the pipes' throughput and the issue slots of the keys ptxas expands into a "
        "sequence, then the memory lines the layout's warps touch and the sectors they bring "
        "from L2 (= SM-pipes).\n\n"
        "| app | algorithm | actual % | SM-shared % | + dependence chains % | + pipes % | "
        "+ memory lines % |\n"
        "|---|---|--:|--:|--:|--:|--:|\n";
  for (const ErrorRow &E : Rows) {
    if (!E.Predicted.BbvWeightedSmPipesWithoutLines)
      continue;
    OS << "| " << E.App << (E.ComputeBound ? "" : " (memory-bound)") << " | " << E.Algorithm
       << " | " << percent(E.Actual) << " | "
       << (E.Predicted.BbvWeightedSmShared ? percent(*E.Predicted.BbvWeightedSmShared) : "-")
       << " | "
       << (E.Predicted.BbvWeightedSmChains ? percent(*E.Predicted.BbvWeightedSmChains) : "-")
       << " | " << percent(*E.Predicted.BbvWeightedSmPipesWithoutLines) << " | "
       << (E.Predicted.BbvWeightedSmPipes ? percent(*E.Predicted.BbvWeightedSmPipes) : "-")
       << " |\n";
  }
  OS << "\n";
}

// The model's time for each launch as written against its measured median:
// an improvement can be right while the times are far off, and a ratio far
// from 1 says which term is wrong (docs/model.md).
void smPipesAsWritten(std::ostream &OS, const BenchResults &R) {
  std::ostringstream Rows;
  for (const AppResult &A : R.Apps) {
    const VariantResult *Base = A.variant("baseline");
    if (!A.Predicted.Present || !A.Predicted.SmPipesCyclesAsWritten || !Base || !Base->measured())
      continue;
    double Measured = summarizeTimes(Base->TimesMs).Median;
    double Predicted = *A.Predicted.SmPipesCyclesAsWritten / (A.Predicted.TableSmClockMHz * 1e3);
    Rows << "| " << A.App << (A.ComputeBound ? "" : " (memory-bound)") << " | " << ms(Measured)
         << " | " << ms(Predicted) << " | " << fixed(Predicted / Measured, 2) << " |\n";
  }
  if (Rows.str().empty())
    return;
  OS << "### SM-pipes' time as written\n\n"
        "The launch as written: its measured median and SM-pipes' estimate, the cycles at the "
        "latency table's SM clock. The improvements above are ratios of two estimates; where "
        "this one is far from the measured time, a term is missing (below 1) or overpriced "
        "(above 1).\n\n"
        "| app | measured ms | SM-pipes ms | SM-pipes / measured |\n"
        "|---|--:|--:|--:|\n"
     << Rows.str() << "\n";
}

void fig7(std::ostream &OS, const BenchResults &R) {
  OS << "## Fig. 7 analog: the prior metrics\n\n"
     << "![Fig. 7, divergent warps](" << PlotFiles::Fig7Warps << ")\n"
     << "![Fig. 7, divergent branches](" << PlotFiles::Fig7Branches << ")\n\n"
     << "| app | divergent warps | divergent branches | algorithm | divergent warps removed % | "
        "actual % |\n|---|--:|--:|---|--:|--:|\n";
  for (const AppResult &A : R.Apps) {
    if (!A.Predicted.Present)
      continue;
    const Prediction &P = A.Predicted;
    std::string Warps = std::to_string(P.DivergentWarps) + " / " + std::to_string(P.Warps) +
                        " (" + percent(P.divergentWarpRatio()) + "%)";
    std::string Branches = std::to_string(P.DivergentBranches) + " / " +
                           std::to_string(P.BranchExecutions) + " (" +
                           percent(P.divergentBranchRatio()) + "%)";
    for (const std::string &Algo : predictedAlgorithms()) {
      auto X = P.Algorithms.find(Algo);
      auto N = numbersFor(A, Algo);
      OS << "| " << A.App << " | " << Warps << " | " << Branches << " | " << Algo << " | "
         << (X != P.Algorithms.end() ? percent(X->second.DivergentWarps) : "-") << " | "
         << (N ? percent(N->KernelImprovement) : "-") << " |\n";
    }
  }
  OS << "\n";
}

void fig8(std::ostream &OS) {
  OS << "## Fig. 8 analog: the BBV metrics\n\n"
     << "![Fig. 8](" << PlotFiles::Fig8 << ")\n\n"
     << "The numbers are those of the Table V analog.\n\n";
}

void fig9(std::ostream &OS, const BenchResults &R) {
  std::vector<std::string> Variants = fig9Variants(R);
  OS << "## Fig. 9 analog: speedup, overhead included\n\n"
     << "![Fig. 9](" << PlotFiles::Fig9 << ")\n\n| app |";
  for (const std::string &V : Variants)
    OS << ' ' << V << " |";
  OS << "\n|---|";
  for (size_t I = 0; I < Variants.size(); ++I)
    OS << "--:|";
  OS << "\n";
  for (const AppResult &A : R.Apps) {
    OS << "| " << A.App << " |";
    for (const std::string &V : Variants) {
      const VariantResult *X = A.variant(V);
      auto N = timesAgainstBaseline(A, V);
      if (X && X->State == Status::Fail)
        OS << ' ' << RedFail << " |";
      else if (N && X->State == Status::Ok)
        OS << ' ' << times(N->Speedup) << (X->DerivedFrom.empty() ? "" : " (" + X->DerivedFrom + ")")
           << " |";
      else
        OS << " - |";
    }
    OS << "\n";
  }
  struct Row {
    const char *Label;
    double SpeedupSummary::*Field;
  };
  for (bool KernelOnly : {false, true})
    for (Row Stat : {Row{"mean", &SpeedupSummary::Mean},
                     Row{"geometric mean", &SpeedupSummary::GeometricMean},
                     Row{"max", &SpeedupSummary::Max}}) {
      OS << "| **" << Stat.Label << (KernelOnly ? ", kernel-only" : "") << "** |";
      for (const std::string &V : Variants) {
        auto S = speedupSummary(R, V, KernelOnly);
        OS << ' ' << (S ? times((*S).*Stat.Field) : "-") << " |";
      }
      OS << "\n";
    }
  OS << "\nSeed 002 (GTX480): Greedy-Max 2.2x on average, 4.7x at most.\n\n";
}

std::string orDash(const std::optional<double> &X, std::string (*Format)(double)) {
  return X ? Format(*X) : std::string("-");
}

std::string verdict(bool Met) { return Met ? "**PASS**" : "**FAIL**"; }

std::string names(const std::vector<std::string> &List) {
  std::string Out;
  for (const std::string &N : List)
    Out += (Out.empty() ? "" : ", ") + N;
  return Out;
}

// Markdown code fences in the runtime's text would end the block early.
std::string fenced(std::string Text) {
  for (size_t At = Text.find("```"); At != std::string::npos; At = Text.find("```", At))
    Text.replace(At, 3, "'''");
  if (!Text.empty() && Text.back() != '\n')
    Text += '\n';
  return "```\n" + Text + "```\n";
}

void endToEnd(std::ostream &OS, const BenchResults &R) {
  OS << "## End to end\n\n";
  std::vector<EndToEndRow> Rows = endToEndRows(R);
  if (Rows.empty()) {
    OS << "No online end-to-end times in these results (the online variant was skipped, or the "
          "results predate it).\n\n";
    return;
  }
  using T = EndToEndTargets;
  auto x3 = [](double X) { return fixed(X, 3) + "x"; };
  OS << "The first " << R.Prov.Repeat
     << " launches of each app's kernel in the process, issued back to back and timed on the "
        "host from the first launch to a cudaDeviceSynchronize() after the last "
        "(`--end-to-end`): off = the baseline (`DIVOPT_MODE=off`), online = `DIVOPT_MODE=optimize` "
        "with neither profile nor model, every overhead of the runtime included. E2e speedup = "
        "off / online; kernel-only = baseline median / online median of the timed launches after "
        "the warm-ups; best forced = the largest kernel-only speedup of sorting, greedy and "
        "greedy-max (guided by the exact profile); share = e2e speedup / best forced, where best "
        "forced >= "
     << times(T::ShareFrom) << ".\n\n"
     << "| app | off e2e ms | online e2e ms | online e2e speedup | online kernel-only | best forced "
        "kernel-only | online e2e share of it |\n"
     << "|---|--:|--:|--:|--:|--:|--:|\n";
  for (const EndToEndRow &Row : Rows) {
    OS << "| " << Row.App << " | " << orDash(Row.OffMs, ms) << " | " << orDash(Row.OnlineMs, ms)
       << " | " << (Row.Speedup ? x3(*Row.Speedup) : "- (" + Row.Missing + ")") << " | "
       << orDash(Row.KernelSpeedup, times) << " | "
       << (Row.BestForced ? times(*Row.BestForced) + " (" + Row.BestForcedAlgorithm + ")"
                          : std::string("-"))
       << " | " << (Row.Share ? percent(*Row.Share) + "%" : "-")
       << " |\n";
  }
  OS << "\n";
  auto S = endToEndSummary(Rows);
  if (!S) {
    std::vector<std::string> Missing;
    for (const EndToEndRow &Row : Rows)
      Missing.push_back(Row.App + " (" + Row.Missing + ")");
    OS << "No app has an online end-to-end speedup: " << names(Missing)
       << ". The targets cannot be met: **FAIL**.\n\n";
  } else {
    OS << "**Online, end to end, over " << S->Apps << " app(s): mean " << x3(S->Mean)
       << ", geometric mean " << x3(S->GeometricMean) << ", minimum " << x3(S->Min) << " ("
       << S->MinApp << ").**\n\n"
       << "- mean >= " << times(T::Mean) << ": " << x3(S->Mean) << " " << verdict(S->MeanMet)
       << "\n"
       << "- geometric mean >= " << times(T::GeometricMean) << ": " << x3(S->GeometricMean) << " "
       << verdict(S->GeometricMeanMet) << "\n"
       << "- online e2e >= " << std::lround(100 * T::Share) << "% of the best forced gain on every "
       << "app where that gain >= " << times(T::ShareFrom) << " (" << S->ShareApps << " app(s)): "
       << verdict(S->shareMet())
       << (S->shareMet() ? "" : " (" + names(S->BelowShare) + ")") << "\n"
       << "- no app below " << times(T::Floor) << ": " << verdict(S->floorMet())
       << (S->floorMet() ? "" : " (" + names(S->BelowFloor) + ")") << "\n"
       << "- every measured app has an online e2e speedup: " << verdict(S->complete())
       << (S->complete() ? "" : " (" + names(S->Missing) + ")") << "\n\n"
       << (S->allMet() ? "All targets met." : "Not every target is met.") << "\n\n";
  }
  for (const AppResult &A : R.Apps)
    if (const VariantResult *V = A.variant("online"); V && !V->Stderr.empty())
      OS << "<details><summary>" << A.App
         << ": the online run's stderr (DIVOPT_VERBOSE=1)</summary>\n\n"
         << fenced(V->Stderr) << "\n</details>\n\n";
}

} // namespace

void writeMarkdownReport(std::ostream &OS, const BenchResults &R) {
  provenance(OS, R);
  resultCheck(OS, R);
  tableV(OS, R);
  errorByFreeze(OS, R);
  smPipesTerms(OS, R);
  smPipesAsWritten(OS, R);
  fig7(OS, R);
  fig8(OS);
  fig9(OS, R);
  endToEnd(OS, R);
  kernelTimes(OS, R);
  OS << "How each number is computed: docs/bench.md.\n";
}

} // namespace divopt::bench
