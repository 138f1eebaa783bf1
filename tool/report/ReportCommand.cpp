#include "ReportCommand.h"
#include "common/JsonOutput.h"
#include "common/KernelFilter.h"
#include "common/TerminalProgress.h"
#include "ReportJson.h"
#include "ReportText.h"

#include <algorithm>
#include <iostream>

namespace divopt {

int runReportCommand(const ReportOptions &Options) {
  KernelFilter Filter(Options.Kernel);
  std::vector<ProfileReport> Profiles;
  std::string Paths;
  for (const std::string &Path : Options.Profiles) {
    ProfileReport R{Path, {}, {}};
    // One launch in memory at a time, in compact form where the record has
    // one: a 20M-thread launch of 203 blocks holds 16 GB of dense counts and
    // a few hundred MB of classes.
    ProfileIndex Index(Path);
    std::vector<TallyRecord> Tallies = Index.tallies();
    {
      // Statistics and seed 001's loop model per launch: long for big profiles.
      TerminalProgress Progress("report", Index.records().size());
      for (size_t I = 0; I < Index.records().size(); ++I) {
        if (!Filter.accepts(Index.records()[I].Header.Kernel))
          continue;
        Progress.step(I, Index.records()[I].Header.Kernel);
        LaunchProfile P = Index.loadClasses(I);
        R.Launches.push_back({P.Header, std::nullopt, computeLaunchStats(P),
                              {P.Kernel.RegroupSafe, P.Kernel.RegroupReason, P.Kernel.RegroupLine},
                              loopImbalance(P)});
      }
    }
    // A launch record's tally: its process's (program and pid), of its
    // kernel and shape.
    for (TallyRecord &T : Tallies) {
      for (LaunchReport &L : R.Launches)
        for (const LaunchTally &E : T.Tallies)
          if (T.Pid == L.Header.Pid && T.Program == L.Header.Program &&
              E.Kernel == L.Header.Kernel && E.Grid == L.Header.Grid &&
              E.Block == L.Header.Block)
            L.Launches = LaunchCount{E.Seen, E.Recorded};
      if (!Options.Kernel.empty())
        T.Tallies.erase(std::remove_if(T.Tallies.begin(), T.Tallies.end(),
                                       [&](const LaunchTally &E) {
                                         return !kernelNameMatches(E.Kernel, Options.Kernel);
                                       }),
                        T.Tallies.end());
      if (!T.Tallies.empty())
        R.Tallies.push_back(std::move(T));
    }
    Profiles.push_back(std::move(R));
    Paths += (Paths.empty() ? "" : ", ") + Path;
  }
  Filter.requireMatch(Paths);

  if (Options.Json)
    // Program paths and device names come from the system (jsonText
    // replaces bytes that are not UTF-8 rather than fail).
    std::cout << jsonText(reportToJson(Profiles), 2) << '\n';
  else
    printTextReport(std::cout, Profiles, Options.Top);
  return 0;
}

} // namespace divopt
