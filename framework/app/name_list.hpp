#pragma once
// A flag that takes names, repeated or comma-separated (`--latency overlap,roofline
// --latency calibrated`): the names in order, each once, without the white space around them.
#include <string>
#include <vector>

namespace tessera::cli {

std::vector<std::string> split_names(const std::vector<std::string>& raw);

}  // namespace tessera::cli
