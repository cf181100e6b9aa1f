#pragma once
// A dotted key path ("machine.levels.node.link_bw") split into its segments, in order. An empty
// path is one empty segment; "a..b" has an empty middle segment (callers report it).
#include <string>
#include <string_view>
#include <vector>

namespace tessera {

inline std::vector<std::string> split_dotted(std::string_view path) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    out.emplace_back(
        path.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) return out;
    start = dot + 1;
  }
}

}  // namespace tessera
