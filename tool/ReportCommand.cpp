#include "ReportCommand.h"
#include "KernelFilter.h"
#include "ReportJson.h"
#include "ReportText.h"

#include <iostream>

namespace divopt {

int runReportCommand(const ReportOptions &Options) {
  KernelFilter Filter(Options.Kernel);
  std::vector<ProfileReport> Profiles;
  std::string Paths;
  for (const std::string &Path : Options.Profiles) {
    ProfileReport R{Path, {}};
    for (const LaunchProfile &P : readProfileFile(Path))
      if (Filter.accepts(P.Header.Kernel))
        R.Launches.push_back({P.Header, computeLaunchStats(P),
                              {P.Kernel.RegroupSafe, P.Kernel.RegroupReason, P.Kernel.RegroupLine},
                              loopImbalance(P)});
    Profiles.push_back(std::move(R));
    Paths += (Paths.empty() ? "" : ", ") + Path;
  }
  Filter.requireMatch(Paths);

  if (Options.Json)
    // Program paths and device names come from the system; replace bytes
    // that are not UTF-8 rather than fail.
    std::cout << reportToJson(Profiles).dump(2, ' ', false,
                                             nlohmann::json::error_handler_t::replace)
              << '\n';
  else
    printTextReport(std::cout, Profiles, Options.Top);
  return 0;
}

} // namespace divopt
