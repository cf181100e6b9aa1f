#include "core/text/inputs_read.hpp"

#include <sys/stat.h>

#include <map>
#include <mutex>
#include <utility>

namespace tessera {
namespace {

std::mutex g_mutex;
std::map<std::pair<unsigned long long, unsigned long long>, InputRead>& inputs() {
  static std::map<std::pair<unsigned long long, unsigned long long>, InputRead> m;
  return m;
}

}  // namespace

void note_input_read(unsigned long long device, unsigned long long inode, const std::string& path,
                     const std::string& what) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  auto& m = inputs();
  if (m.size() >= kMaxInputsRemembered) return;
  m.emplace(std::make_pair(device, inode), InputRead{path, what});
}

void note_input_file(const std::string& path, const std::string& what) {
  struct stat st {};
  if (!path.empty() && ::stat(path.c_str(), &st) == 0) note_input_read(st.st_dev, st.st_ino, path, what);
}

std::vector<InputRead> inputs_read_list() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<InputRead> out;
  for (const auto& [id, in] : inputs()) out.push_back(in);
  return out;
}

std::optional<InputRead> input_read_as(unsigned long long device, unsigned long long inode) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  const auto& m = inputs();
  const auto it = m.find({device, inode});
  if (it == m.end()) return std::nullopt;
  return it->second;
}

}  // namespace tessera
