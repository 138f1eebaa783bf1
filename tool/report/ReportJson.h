// The --json form of `divopt report`: every number of the text report and
// every block, for scripts.
#pragma once
#include "LaunchReport.h"

#include <nlohmann/json.hpp>

namespace divopt {

nlohmann::json reportToJson(const std::vector<ProfileReport> &Profiles);

} // namespace divopt
