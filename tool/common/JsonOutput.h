// JSON documents as the subcommands print them (--json, dump).
#pragma once
#include <nlohmann/json.hpp>

#include <string>

namespace divopt {

// J as text: compact (Indent -1) or indented. Invalid UTF-8 in names from a
// profile (kernel names, source paths) becomes U+FFFD instead of an exception.
std::string jsonText(const nlohmann::json &J, int Indent = -1);

} // namespace divopt
