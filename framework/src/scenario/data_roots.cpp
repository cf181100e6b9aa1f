#include "scenario/data_roots.hpp"

#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "core/program_location.hpp"

namespace fs = std::filesystem;

namespace tessera {

std::string shipped_data_root() {
  std::error_code ec;
  const std::string bin = program_bin_dir();
  if (!bin.empty()) {
    const fs::path installed = fs::path(bin) / ".." / "share" / "tessera";
    if (fs::is_directory(installed / "models", ec)) return installed.lexically_normal().string();
  }
  // The build tree stages its data there too (tessera_stage_data): never the source tree.
  return ".";
}

std::vector<std::string> data_roots(const LoadOptions& options) {
  if (!options.data_root.empty()) return {options.data_root};
  std::vector<std::string> roots;
  if (const char* env = std::getenv("TESSERA_DATA_DIR")) {
    const std::string_view list(env);
    std::size_t start = 0;
    while (start <= list.size()) {
      const std::size_t colon = std::min(list.find(':', start), list.size());
      if (colon > start) roots.emplace_back(list.substr(start, colon - start));
      start = colon + 1;
    }
  }
  roots.push_back(shipped_data_root());
  return roots;
}

}  // namespace tessera
