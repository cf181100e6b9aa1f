#include "name_list.hpp"

#include <algorithm>
#include <sstream>

#include "core/text/input_text.hpp"

namespace tessera::cli {

std::vector<std::string> split_names(const std::vector<std::string>& raw) {
  std::vector<std::string> out;
  for (const std::string& r : raw) {
    std::stringstream ss(r);
    std::string item;
    while (std::getline(ss, item, ',')) {
      item = trim(item);
      if (!item.empty() && std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
    }
  }
  return out;
}

}  // namespace tessera::cli
