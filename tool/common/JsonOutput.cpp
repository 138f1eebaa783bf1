#include "JsonOutput.h"

namespace divopt {

std::string jsonText(const nlohmann::json &J, int Indent) {
  return J.dump(Indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace divopt
