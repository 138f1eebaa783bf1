#include "online/OnlineStats.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace divopt::rt::online {

double OnlineStats::netSavedMs() const {
  // Each trial ran once; after the trials, redirected launches ran the
  // verdict's layout (the provisional ones held the GPU's verdict).
  double Saved = 0;
  uint64_t Trials = 0;
  for (double Trial : TrialMs)
    if (Trial > 0) {
      Saved += ReferenceMs - Trial;
      ++Trials;
    }
  if (Verdict == "regrouped" && RedirectedLaunches > Trials)
    Saved += double(RedirectedLaunches - Trials) * (ReferenceMs - KeptMs);
  double CostCloneExtra = double(CostLaunches) * std::max(0.0, CostCloneMs - ReferenceMs);
  return Saved - CostCloneExtra - DecisionGpuMs - DecisionHostMs;
}

void printSummary(const std::vector<OnlineStats> &Rows) {
  if (Rows.empty())
    return;
  size_t Name = 6;
  for (const OnlineStats &R : Rows)
    Name = std::max(Name, R.Kernel.size() + 1 + R.Shape.size());
  std::fprintf(stderr,
               "divopt: online summary (launches: cost clone / original / regrouped, guard trials "
               "included; times per launch in ms; decision totals in ms)\n");
  std::fprintf(stderr, "%-*s %9s %9s %9s %-10s %8s %9s %9s %9s %9s %8s %8s %9s\n", int(Name),
               "kernel", "cost", "original", "regrouped", "layout", "estimate", "ref ms",
               "probe ms", "kept ms", "cost ms", "gpu ms", "host ms", "saved ms");
  // kernel -> its shapes never bound, and their launches
  std::map<std::string, std::pair<uint64_t, uint64_t>> Waiting;
  for (const OnlineStats &R : Rows) {
    if (R.Verdict == "waiting") {
      ++Waiting[R.Kernel].first;
      Waiting[R.Kernel].second += R.OriginalLaunches;
      continue;
    }
    std::string Label = R.Kernel + " " + R.Shape;
    std::fprintf(stderr,
                 "%-*s %9llu %9llu %9llu %-10s %+7.1f%% %9.3f %9.3f %9.3f %9.3f %8.3f %8.3f %9.3f  %s\n",
                 int(Name), Label.c_str(), (unsigned long long)R.CostLaunches,
                 (unsigned long long)R.OriginalLaunches, (unsigned long long)R.RedirectedLaunches,
                 R.Layout.c_str(), 100 * R.EstimatedGain, R.ReferenceMs, R.TrialMs[0], R.KeptMs,
                 R.CostCloneMs, R.DecisionGpuMs, R.DecisionHostMs, R.netSavedMs(),
                 R.Disabled.empty() ? R.Verdict.c_str() : ("off: " + R.Disabled).c_str());
  }
  for (const auto &[Kernel, Counts] : Waiting) {
    auto [Shapes, Launches] = Counts;
    std::fprintf(stderr,
                 "%s: %llu more shape%s run as written, %llu launch%s (a kernel's later shapes "
                 "are decided once their launches could pay for it)\n",
                 Kernel.c_str(), (unsigned long long)Shapes, Shapes == 1 ? "" : "s",
                 (unsigned long long)Launches, Launches == 1 ? "" : "es");
  }
}

} // namespace divopt::rt::online
