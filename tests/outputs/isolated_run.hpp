#pragma once
// `tessera` run as a child for the isolation tests (test_isolation.cpp, test_whole_isolation.cpp):
// its status, output and time; result documents compared without what names the command; the
// processes a test left behind.
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "fault_scenario.hpp"
#include "output_test_util.hpp"
#include "tessera_build_paths.hpp"

namespace tessera::test {

struct IsolatedRun {
  int status = -1;
  std::string out, err;
  double seconds = 0;
};

// `tessera ARGS`, stdout and stderr kept (in a folder of their own).
inline IsolatedRun run_tessera_cli(const std::string& args) {
  const TempDir logs;
  const std::string cmd = "TESSERA_PLUGIN_PATH= " + std::string(TESSERA_BINARY_DIR) + "/bin/tessera " + args +
                          " >" + logs / "out" + " 2>" + logs / "err";
  const auto start = std::chrono::steady_clock::now();
  const int rc = std::system(("sh -c '" + cmd + "'").c_str());
  IsolatedRun o;
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  o.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  o.out = slurp(logs / "out");
  o.err = slurp(logs / "err");
  return o;
}

inline std::string broken_run_args(const std::string& scenario, const std::string& more) {
  return "run " + scenario + " --plugin-path " + broken_plugin_dir() + " " + more;
}

// A result document without what names the command and the build.
inline nlohmann::json document_without_command(const std::string& path) {
  nlohmann::json j = nlohmann::json::parse(slurp(path));
  j.erase("command");
  j.erase("provenance");
  return j;
}

// Processes whose command line names `needle` (a test's own scenario path).
inline int processes_naming(const std::string& needle) {
  int n = 0;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string pid = e.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = slurp((e.path() / "cmdline").string());
    for (char& c : cmdline)
      if (c == '\0') c = ' ';
    if (cmdline.find(needle) != std::string::npos) ++n;
  }
  return n;
}

}  // namespace tessera::test
