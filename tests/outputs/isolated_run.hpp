#pragma once
// `tessera` run as a child for the isolation tests (test_isolation.cpp, test_whole_isolation.cpp):
// its status, output and time; result documents compared without what names the command; the
// processes a test left behind.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "child_process.hpp"
#include "fault_scenario.hpp"
#include "output_test_util.hpp"
#include "tessera_build_paths.hpp"

namespace tessera::test {

struct IsolatedRun {
  int status = -1;
  std::string out, err;
  double seconds = 0;
};

// `PROGRAM ARGS` in sh with TESSERA_PLUGIN_PATH empty, stdout and stderr kept (in a folder of
// their own).
inline IsolatedRun run_in_shell(const std::string& program, const std::string& args) {
  const TempDir logs;
  const std::string cmd =
      "TESSERA_PLUGIN_PATH= " + program + " " + args + " >" + logs / "out" + " 2>" + logs / "err";
  const auto start = std::chrono::steady_clock::now();
  const int rc = std::system(("sh -c '" + cmd + "'").c_str());
  IsolatedRun o;
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  o.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  o.out = slurp(logs / "out");
  o.err = slurp(logs / "err");
  return o;
}

// `tessera ARGS`.
inline IsolatedRun run_tessera_cli(const std::string& args) {
  return run_in_shell(std::string(TESSERA_BINARY_DIR) + "/bin/tessera", args);
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

// `tessera ARGS` (argv after the executable) started in the background, sent `signal` once the
// temporary output it writes into `outputs` exists and `processes` processes name `scenario`
// (this command and its workers, inside the fixture's hanging call): its exit status, how long it
// took to end after the signal, and its stderr.
struct InterruptedRun {
  int status = -1;
  double seconds = 0;
  std::string err;
  int processes_before = 0;
};
inline InterruptedRun interrupt_when_stuck(const std::vector<std::string>& args, const TempDir& outputs,
                                           const std::string& scenario, int signal) {
  const TempDir logs;
  std::vector<std::string> argv = {std::string(TESSERA_BINARY_DIR) + "/bin/tessera"};
  argv.insert(argv.end(), args.begin(), args.end());
  const pid_t pid = spawn_quiet(argv, logs / "err");
  InterruptedRun r;
  if (pid < 0) return r;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (outputs.names().size() < 2 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  r.processes_before = processes_naming(scenario);
  const auto sent = std::chrono::steady_clock::now();
  ::kill(pid, signal);
  r.status = wait_for(pid, 10);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
  r.err = slurp(logs / "err");
  return r;
}

}  // namespace tessera::test
