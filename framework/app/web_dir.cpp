#include "web_dir.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/program_location.hpp"
#include "tessera/error.hpp"

#ifndef TESSERA_WEB_DIR_DEFAULT
#define TESSERA_WEB_DIR_DEFAULT ""
#endif

namespace tessera::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPackages[] = {"vega", "vega-lite", "vega-embed"};

bool has_bundles(const std::string& dir) {
  std::error_code ec;
  for (const char* p : kPackages) {
    const fs::path pkg = fs::path(dir) / p;
    if (!fs::is_regular_file(pkg / "build" / (std::string(p) + ".min.js"), ec) ||
        !fs::is_regular_file(pkg / "package.json", ec))
      return false;
  }
  return true;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& d : v) s += (s.empty() ? "" : ", ") + d;
  return s;
}

std::string version_in(const std::string& dir, const char* package) {
  std::ifstream in(fs::path(dir) / package / "package.json", std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  try {
    return nlohmann::json::parse(os.str()).value("version", "?");
  } catch (const nlohmann::json::exception&) {
    return "?";
  }
}

std::string env_web_dir() {
  const char* env = std::getenv("TESSERA_WEB_DIR");
  return env ? env : "";
}

}  // namespace

std::vector<std::string> web_dir_candidates(const std::string& env, const std::string& bin_dir,
                                            const std::string& build_default) {
  if (!env.empty()) return {env};
  std::vector<std::string> out;
  if (!bin_dir.empty())
    out.push_back((fs::path(bin_dir) / ".." / "share" / "tessera" / "web").lexically_normal().string());
  if (!build_default.empty()) out.push_back(build_default);
  return out;
}

std::string first_web_dir(const std::vector<std::string>& candidates) {
  for (const std::string& d : candidates)
    if (has_bundles(d)) return d;
  return "";
}

std::vector<std::string> web_dir_candidates() {
  return web_dir_candidates(env_web_dir(), program_bin_dir(), TESSERA_WEB_DIR_DEFAULT);
}

std::string web_dir() {
  const std::vector<std::string> candidates = web_dir_candidates();
  std::string dir = first_web_dir(candidates);
  if (!dir.empty()) return dir;
  throw Error(
      "the HTML report inlines vega, vega-lite and vega-embed (<package>/build/<package>.min.js and "
      "<package>/package.json), found in none of: " +
      joined(candidates) +
      (env_web_dir().empty() ? std::string()
                             : std::string(" ($TESSERA_WEB_DIR is set: only it is looked in)")) +
      " (run scripts/install-deps.sh, which runs `npm ci` in third_party/web; `cmake --install` "
      "copies them to <prefix>/share/tessera/web; or set TESSERA_WEB_DIR to a folder that has them)");
}

std::string web_dir_description() {
  const std::vector<std::string> candidates = web_dir_candidates();
  const std::string dir = first_web_dir(candidates);
  if (dir.empty()) return "none found (looked in " + joined(candidates) + ")";
  std::string s = dir + " (";
  for (const char* p : kPackages)
    s += std::string(p == kPackages[0] ? "" : ", ") + p + " " + version_in(dir, p);
  return s + ")";
}

}  // namespace tessera::cli
