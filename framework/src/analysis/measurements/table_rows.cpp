// The rows that built latency/measured's tables (analysis/measurements/table_rows.hpp).
#include "analysis/measurements/table_rows.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

namespace tessera::accuracy {

namespace fs = std::filesystem;

std::string kernel_tables_dir(const std::string& data_root) {
  return (fs::path(data_root.empty() ? "." : data_root) / "data" / "kernel-tables").string();
}

std::map<std::string, std::string> table_build_rows(const std::string& dir) {
  std::map<std::string, std::string> rows;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return rows;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".csv") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    std::ifstream in(f);
    std::string line;
    while (std::getline(in, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty() || line[0] == '#') continue;
      const std::size_t comma = line.rfind(',');
      const std::string source = comma == std::string::npos ? line : line.substr(comma + 1);
      if (source.rfind("row ", 0) == 0) rows.emplace(source.substr(4), f.stem().string());
    }
  }
  return rows;
}

}  // namespace tessera::accuracy
