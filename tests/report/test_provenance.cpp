// Provenance in every saved result (docs/report.md "Provenance"): the SHA-256 the
// digests use (FIPS 180-4 vectors, sha256sum), the `provenance` member of a study's --json
// (each loaded plugin's id, version, path and digest; Tessera's version, commit and build type),
// the HTML header's rows, calibrate --bands' comment lines, and a result saved before provenance
// existed (tests/report/fixtures/) still drawn by `tessera report`.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/build_info.hpp"
#include "core/sha256.hpp"
#include "host/plugin_registry.hpp"
#include "output_test_util.hpp"
#include "tessera/version.hpp"
#include "tessera_build_paths.hpp"

#include <sys/wait.h>

using tessera::test::TempDir;

namespace {

int pv_cli(const std::string& args) {
  const std::string exe = std::string(TESSERA_BINARY_DIR) + "/bin/tessera";
  const std::string cmd = "TESSERA_PLUGIN_PATH= " + exe + " " + args + " -q >/dev/null 2>&1";
  const int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

std::string pv_read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// The first line `cmd` prints on stdout, trailing newline removed ("" when it fails).
std::string pv_shell_line(const std::string& cmd) {
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return "";
  char buf[512];
  std::string out;
  if (std::fgets(buf, sizeof buf, p)) out = buf;
  const int rc = ::pclose(p);
  if (!WIFEXITED(rc) || WEXITSTATUS(rc) != 0) return "";
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

// sha256sum's digest of `path` (coreutils: the reference the host's digest must equal).
std::string pv_sha256sum(const std::string& path) {
  const std::string line = pv_shell_line("sha256sum '" + path + "'");
  return line.substr(0, line.find(' '));
}

// CMAKE_BUILD_TYPE as this build tree's CMakeCache.txt holds it.
std::string pv_cached_build_type() {
  std::istringstream in(pv_read(std::string(TESSERA_BINARY_DIR) + "/CMakeCache.txt"));
  const std::string key = "CMAKE_BUILD_TYPE:STRING=";
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key, 0) == 0) return line.substr(key.size());
  return "";
}

bool pv_web_assets() {
  return std::filesystem::exists(std::string(TESSERA_SOURCE_DIR) +
                                 "/third_party/web/node_modules/vega/build/vega.min.js");
}

const std::string kPvSmall = "scenarios/llama3.1-8b-decode-4k-h100.yaml";
std::string pv_source(const std::string& rel) { return std::string(TESSERA_SOURCE_DIR) + "/" + rel; }

}  // namespace

TEST_CASE("sha256 gives the FIPS 180-4 example digests") {
  CHECK(tessera::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(tessera::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(tessera::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // One million 'a', fed in pieces that straddle the 64-byte blocks.
  tessera::Sha256 s;
  const std::string piece(997, 'a');
  std::size_t fed = 0;
  while (fed + piece.size() <= 1000000) {
    s.update(piece);
    fed += piece.size();
  }
  s.update(std::string(1000000 - fed, 'a'));
  CHECK(s.hex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("a file's sha256 equals sha256sum's and is read once per process") {
  TempDir dir;
  const std::string path = dir / "lib.so";
  {
    std::ofstream out(path, std::ios::binary);
    for (int i = 0; i < 200000; ++i) out.put(static_cast<char>(i * 131 % 251));
  }
  const std::string want = pv_sha256sum(path);
  REQUIRE(want.size() == 64);
  CHECK(tessera::file_sha256_cached(path) == want);
  // Changed on disk: the first answer stands (computed once per process, not per result).
  std::ofstream(path, std::ios::binary) << "changed";
  CHECK(tessera::file_sha256_cached(path) == want);
  CHECK(!tessera::file_sha256_cached(dir / "missing.so").has_value());
}

TEST_CASE("run --json records each loaded plugin with its version path and sha256") {
  TempDir dir;
  REQUIRE(pv_cli("run " + pv_source(kPvSmall) + " --json " + (dir / "r.json")) == 0);
  const nlohmann::json j = nlohmann::json::parse(pv_read(dir / "r.json"));
  REQUIRE(j.contains("provenance"));
  const nlohmann::json& p = j["provenance"];
  // Independently: the build's own registry says which library provides each plugin.
  tessera::PluginRegistry registry({TESSERA_BUILD_PLUGIN_DIR}, false);
  std::set<std::string> ids;
  for (const nlohmann::json& l : p["plugins"]) {
    const std::string id = l["id"], kind = l["kind"], name = l["name"], path = l["path"];
    ids.insert(id);
    CHECK(id == kind + "/" + name);
    const auto k = tessera::parse_plugin_kind(kind);
    REQUIRE(k.has_value());
    const tessera::LoadedPlugin* loaded = registry.find(*k, name);
    REQUIRE(loaded != nullptr);
    CHECK(l["version"] == std::string(loaded->descriptor->version));
    CHECK(l["framework_version"] == std::string(tessera::kVersion));
    CHECK(std::filesystem::equivalent(path, loaded->path));
    CHECK(std::filesystem::path(path).is_absolute());
    CHECK(std::filesystem::path(path).filename() == "libtessera_" + kind + "_" + name + ".so");
    CHECK(l["sha256"] == pv_sha256sum(path));
  }
  // The scenario's plugins (latency calibrated, memory standard, search exhaustive, objectives
  // latency, pes, efficiency) are all there.
  for (const char* id : {"latency/calibrated", "memory/standard", "search/exhaustive", "objective/latency",
                         "objective/pes", "objective/efficiency"})
    CHECK(ids.count(id) == 1);
  const nlohmann::json& t = p["tessera"];
  CHECK(t["version"] == std::string(tessera::kVersion));
  CHECK(t["version"] == j["version"]);
  CHECK(t["build_type"] == pv_cached_build_type());
  CHECK(t["build_type"] == std::string(tessera::build_type()));
  CHECK(t["sanitizers"] == std::string(tessera::build_sanitizers()));
  CHECK(!t["compiler"].get<std::string>().empty());
  // The commit: in a git checkout a commit object of the repository (the one built, which may be
  // an ancestor of HEAD by now), else "unknown".
  const std::string commit = t["commit"];
  CHECK(commit == tessera::build_commit());
  const std::string src = TESSERA_SOURCE_DIR;
  if (!pv_shell_line("git -C '" + src + "' rev-parse --verify -q HEAD 2>/dev/null").empty()) {
    CHECK(std::regex_match(commit, std::regex("[0-9a-f]{40}")));
    CHECK(pv_shell_line("git -C '" + src + "' cat-file -t " + commit + " 2>/dev/null") == "commit");
  } else {
    CHECK(commit == "unknown");
  }
}

TEST_CASE("serve and compare results carry provenance too and the HTML header shows it") {
  TempDir dir;
  REQUIRE(pv_cli("compare " + pv_source("scenarios/llama3.1-70b-compare-latency-models.yaml") +
                 " --latency overlap,roofline --json " + (dir / "c.json")) == 0);
  const nlohmann::json c = nlohmann::json::parse(pv_read(dir / "c.json"));
  std::set<std::string> ids;
  for (const nlohmann::json& l : c["provenance"]["plugins"]) ids.insert(l["id"].get<std::string>());
  CHECK(ids.count("latency/overlap") == 1);
  CHECK(ids.count("latency/roofline") == 1);
  REQUIRE(pv_cli("serve " + pv_source("scenarios/llama3.1-70b-serve-4k1k-h100.yaml") + " --json " +
                 (dir / "s.json")) == 0);
  const nlohmann::json s = nlohmann::json::parse(pv_read(dir / "s.json"));
  ids.clear();
  for (const nlohmann::json& l : s["provenance"]["plugins"]) ids.insert(l["id"].get<std::string>());
  CHECK(ids.count("serving/aggregated") == 1);
  CHECK(s["provenance"]["tessera"]["commit"] == std::string(tessera::build_commit()));
  // The page drawn from the result names the commit, the build type and each library's digest.
  if (!pv_web_assets()) {
    WARN("third_party/web/node_modules absent (scripts/install-deps.sh): the page is not checked");
    return;
  }
  REQUIRE(pv_cli("report " + (dir / "s.json") + " --html " + (dir / "s.html")) == 0);
  const std::string html = pv_read(dir / "s.html");
  const std::string commit12 = std::string(tessera::build_commit()).substr(0, 12);
  CHECK(html.find("<tr><th>Tessera</th><td>" + std::string(tessera::kVersion) + " (commit " + commit12 +
                  ", " + tessera::build_type()) != std::string::npos);
  std::string aggregated;
  for (const nlohmann::json& l : s["provenance"]["plugins"])
    if (l["id"] == "serving/aggregated")
      aggregated = "serving/aggregated " + l["version"].get<std::string>() + " (sha256 " +
                   l["sha256"].get<std::string>().substr(0, 12) + ")";
  CHECK(html.find("<tr><th>plugin libraries</th>") != std::string::npos);
  CHECK(html.find(aggregated) != std::string::npos);
}

TEST_CASE("a result saved before provenance is still drawn by report") {
  TempDir dir;
  const std::string fixture = pv_source("tests/report/fixtures/run-0.1.0-before-provenance.json");
  REQUIRE(!nlohmann::json::parse(pv_read(fixture)).contains("provenance"));
  // The result schema accepts it (--vega needs no script bundle), and so the page.
  CHECK(pv_cli("report " + fixture + " --vega " + (dir / "old-vega")) == 0);
  CHECK(std::filesystem::exists(dir / "old-vega/pareto.vl.json"));
  // A provenance of the wrong shape is bad input (exit 2), as any other field of a result.
  nlohmann::json bad = nlohmann::json::parse(pv_read(fixture));
  bad["provenance"] = {{"plugins", {{{"id", "latency/x"}, {"sha256", 12}}}}};
  std::ofstream(dir / "bad.json") << bad.dump();
  CHECK(pv_cli("report " + (dir / "bad.json") + " --vega " + (dir / "bad-vega")) == 2);
  if (!pv_web_assets()) {
    WARN("third_party/web/node_modules absent (scripts/install-deps.sh): the page is not checked");
    return;
  }
  CHECK(pv_cli("report " + fixture + " --html " + (dir / "old.html")) == 0);
  const std::string html = pv_read(dir / "old.html");
  CHECK(html.find("<tr><th>Tessera</th><td>0.1.0</td></tr>") != std::string::npos);
  CHECK(html.find("plugin libraries") == std::string::npos);
}
