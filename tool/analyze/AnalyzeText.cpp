#include "AnalyzeReport.h"
#include "common/KernelFilter.h"
#include "common/TextFormat.h"
#include "common/TextTable.h"

#include <cstdio>

namespace divopt {

namespace {

std::string cycles(double V) { return fixed(V, "%.0f"); }
std::string signedPercent(double Ratio) { return fixed(100 * Ratio, "%+.1f%%"); }
std::string withGain(const std::string &Value, double Gain) {
  return Value + " (" + signedPercent(Gain) + ")";
}

std::string count(uint64_t N, const std::string &Noun) {
  return std::to_string(N) + " " + Noun + (N == 1 ? "" : "s");
}

std::string dims(const std::array<uint32_t, 3> &D) {
  return std::to_string(D[0]) + "x" + std::to_string(D[1]) + "x" + std::to_string(D[2]);
}

void line(std::ostream &OS, const std::string &Label, const std::string &Value) {
  OS << Label << std::string(Label.size() < 20 ? 20 - Label.size() : 1, ' ') << Value << '\n';
}

void printLatency(std::ostream &OS, const AnalyzeReport &R) {
  const LatencyTable &T = R.Latency;
  const LatencyProvenance &P = T.Provenance;
  if (T.Placeholder)
    line(OS, "latency", T.Origin + ": " + P.Method +
                            "; estimates rank divergence, they are not measured times "
                            "(--latency TABLE for a measured table)");
  else
    line(OS, "latency", T.Origin + ": " + P.Device + " (cc " + std::to_string(P.ComputeCapability / 10) +
                            "." + std::to_string(P.ComputeCapability % 10) + "), driver " +
                            P.Driver + ", SM clock " + fixed(P.SmClockMHz, "%.0f") + " MHz, " +
                            P.Date + "; " + P.Method);
  for (const std::string &W : R.Guessed)
    OS << "warning: " << W << '\n';
}

void printHeader(std::ostream &OS, const LaunchAnalysis &L) {
  if (L.Header) {
    const LaunchHeader &H = *L.Header;
    std::string Demangled = demangleKernel(H.Kernel);
    line(OS, "kernel", Demangled == H.Kernel ? H.Kernel : Demangled + " (" + H.Kernel + ")");
    line(OS, "program", H.Program + " (pid " + std::to_string(H.Pid) + ", launch " +
                            std::to_string(H.LaunchIndex) + " of this kernel)");
    line(OS, "grid / block", dims(H.Grid) + " / " + dims(H.Block));
  } else {
    line(OS, "bbvs", L.BbvSource);
    line(OS, "block size", std::to_string(L.BlockSize) + " threads");
  }
  const RegroupDecision &D = L.Decision;
  line(OS, "threads", std::to_string(L.Threads) + " in " + std::to_string(D.Baseline.Warps) +
                          " warps, " + std::to_string(L.BasicBlocks) + " basic blocks, " +
                          std::to_string(D.Classes) + " distinct BBVs");
  if (L.Kernel)
    line(OS, "regrouping", L.Kernel->RegroupSafe
                               ? std::string("possible (the pass made a redirected clone)")
                               : "not possible: " + L.Kernel->RegroupReason +
                                     (L.Kernel->RegroupLine
                                          ? " (line " + std::to_string(L.Kernel->RegroupLine) + ")"
                                          : ""));
  line(OS, "model", count(L.Gpu.SMs, "SM") + " x occupancy " + std::to_string(L.Gpu.Occupancy) +
                        (L.OccupancyGiven ? "" : " (sm_90 thread limit; --occupancy N)") + " = " +
                        count(L.Gpu.slots(), "slot") + "; groups of " +
                        std::to_string(L.GroupSize) + " threads");
  line(OS, "redirection",
       cycles(L.Price.PerWarp) + " cycles per warp to load D" +
           (L.Price.PerBlock.empty() ? "; scattered accesses not priced (the notes do not count them)"
                                     : "; scattered accesses priced per block"));
  if (L.Branches)
    line(OS, "divergent branches",
         std::to_string(L.Branches->Divergent) + " / " + std::to_string(L.Branches->Executed) +
             " (" + fixed(100 * L.Branches->ratio(), "%.1f%%") + "), measured" +
             (L.Branches->CountedBlocks < L.Branches->ThreadBlocks
                  ? " in " + std::to_string(L.Branches->CountedBlocks) + " of " +
                        std::to_string(L.Branches->ThreadBlocks) + " thread blocks and scaled"
                  : std::string()) +
             "; a regrouping's are measured by profiling it");
}

void printTable(std::ostream &OS, const LaunchAnalysis &L) {
  using A = TextTable::Align;
  TextTable T({{"", A::Left},
               {"divergent warps", A::Right},
               {"bbv-weighted", A::Right},
               {"bbv-weighted-scheduled", A::Right},
               {"redirected bbv-weighted", A::Right},
               {"redirected scheduled", A::Right},
               {"time", A::Right}});
  const LaunchMetrics &B = L.Decision.Baseline;
  T.addRow({"baseline", std::to_string(B.DivergentWarps), cycles(B.BbvWeighted),
            cycles(B.BbvWeightedScheduled), "", "", ""});
  for (const AlgorithmOutcome &O : L.Decision.Outcomes) {
    const LaunchMetrics &P = O.After.Plain, &R = O.After.Redirected;
    T.addRow({algorithmName(O.Algo),
              withGain(std::to_string(P.DivergentWarps), O.Gain.DivergentWarps),
              withGain(cycles(P.BbvWeighted), O.Gain.BbvWeighted),
              withGain(cycles(P.BbvWeightedScheduled), O.Gain.BbvWeightedScheduled),
              withGain(cycles(R.BbvWeighted), O.RedirectedGain.BbvWeighted),
              withGain(cycles(R.BbvWeightedScheduled), O.RedirectedGain.BbvWeightedScheduled),
              fixed(1e3 * O.Seconds, "%.1f ms")});
  }
  OS << "estimates in cycles; (+x%): improvement over the baseline, (before - after) / before\n";
  T.print(OS, "");
  const RegroupDecision &D = L.Decision;
  for (auto [Name, Gain] : {std::pair{"sm-shared", &AlgorithmOutcome::SmSharedGain},
                            std::pair{"sm-pipes", &AlgorithmOutcome::SmPipesGain}}) {
    std::string Gains;
    for (const AlgorithmOutcome &O : D.Outcomes)
      if (O.*Gain)
        Gains += (Gains.empty() ? "" : ", ") + algorithmName(O.Algo) + " " + signedPercent(*(O.*Gain));
    if (!Gains.empty())
      line(OS, Name, Gains);
  }
  std::string Threshold = fixed(100 * L.MinImprovement, "%.0f%%");
  if (D.Chosen) {
    const AlgorithmOutcome &O = D.Outcomes[*D.Chosen];
    line(OS, "chosen",
         algorithmName(O.Algo) +
             (O.SmSharedGain ? ": sm-shared " + signedPercent(*O.SmSharedGain)
                             : ": bbv-weighted-scheduled " +
                                   signedPercent(O.RedirectedGain.BbvWeightedScheduled) +
                                   " with redirection") +
             " (threshold " + Threshold + ")");
  } else if (!D.Outcomes.empty() && D.Outcomes[0].SmSharedGain) {
    line(OS, "chosen", "none: no algorithm improves sm-shared by " + Threshold);
  } else {
    line(OS, "chosen", "none: no algorithm improves bbv-weighted-scheduled by " + Threshold +
                           " once redirection is paid for");
  }
}

} // namespace

void printAnalyzeText(std::ostream &OS, const AnalyzeReport &R) {
  printLatency(OS, R);
  for (const LaunchAnalysis &L : R.Launches) {
    OS << '\n';
    printHeader(OS, L);
    OS << '\n';
    printTable(OS, L);
  }
}

} // namespace divopt
