#include "core/program_location.hpp"

#include <filesystem>
#include <mutex>
#include <system_error>

namespace fs = std::filesystem;

namespace tessera {
namespace {

std::mutex& prefix_mutex() {
  static std::mutex m;
  return m;
}
std::string& prefix_value() {
  static std::string prefix;
  return prefix;
}

}  // namespace

std::string program_bin_dir() {
  {
    const std::lock_guard<std::mutex> lock(prefix_mutex());
    if (!prefix_value().empty()) return (fs::path(prefix_value()) / "bin").lexically_normal().string();
  }
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.parent_path().string();
}

void set_program_prefix(const std::string& prefix) {
  const std::lock_guard<std::mutex> lock(prefix_mutex());
  prefix_value() = prefix;
}

}  // namespace tessera
