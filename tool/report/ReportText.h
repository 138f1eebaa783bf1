// The human-readable form of `divopt report` (docs/report.md).
#pragma once
#include "LaunchReport.h"

#include <ostream>

namespace divopt {

// Top: basic blocks listed per launch, 0 for all.
void printTextReport(std::ostream &OS, const std::vector<ProfileReport> &Profiles, unsigned Top);

} // namespace divopt
