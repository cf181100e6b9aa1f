// A real SIGINT / SIGTERM sent to `tessera run --csv` while it streams rows: exit 130 / 143,
// one "interrupted" line, no file left. The signal is sent once the temporary CSV has rows
// (the search has started), not after a fixed sleep.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "child_process.hpp"
#include "fault_scenario.hpp"
#include "output_test_util.hpp"
#include "tessera_build_paths.hpp"

using namespace tessera::test;

namespace {

struct Ended {
  int status = -1;  // exit status, or -1 when killed by a signal / timed out
  std::string err;
};

// The temporary CSV has more than its header: rows are being written.
bool rows_streaming(const TempDir& d) {
  for (const auto& e : fs::directory_iterator(d.path()))
    if (e.path().filename().string().find("all.csv.tmp") == 0 && fs::file_size(e.path()) > 4096) return true;
  return false;
}

Ended interrupt_run(int sig) {
  TempDir d;
  const std::string err_path =
      (fs::temp_directory_path() / ("tessera-signal-" + std::to_string(::getpid()))).string();
  const std::string exe = std::string(TESSERA_BINARY_DIR) + "/bin/tessera";
  const std::string scenario =
      std::string(TESSERA_SOURCE_DIR) + "/scenarios/deepseek-v3-decode-32k-h200.yaml";
  const std::string csv = d / "all.csv";
  const std::string json = d / "summary.json";
  // 78848 MoE configurations on one thread: tens of seconds, far longer than the signal takes.
  std::vector<std::string> args{exe,
                                "run",
                                scenario,
                                "--threads",
                                "1",
                                "--csv",
                                csv,
                                "--json",
                                json,
                                "--set",
                                "sweep.parallelism.cp=[1,2,3,4,6,8]",
                                "--set",
                                "sweep.parallelism.tp=[1,2,4,8,16,32]",
                                "--set",
                                "sweep.parallelism.pp=[1,2,3,4,5,6,7,8]",
                                "--set",
                                "sweep.parallelism.dp=[1,2,3,4,5,6,7,8]",
                                "--set",
                                "sweep.parallelism.ep=[1,2,4,8,16,32,64,128,256]"};
  const pid_t pid = spawn_quiet(args, err_path);
  REQUIRE(pid >= 0);
  // Wait (up to 60 s on a loaded machine) for the search to stream rows.
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  bool started = false;
  while (!started && std::chrono::steady_clock::now() < until) {
    int st = 0;
    if (::waitpid(pid, &st, WNOHANG) == pid) break;  // ended on its own: fails below
    started = rows_streaming(d);
    if (!started) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  Ended e;
  if (!started) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    e.err = slurp(err_path);
    ::unlink(err_path.c_str());
    FAIL("the run never streamed rows: " << e.err);
  }
  ::kill(pid, sig);
  e.status = wait_for(pid, 30);
  e.err = slurp(err_path);
  ::unlink(err_path.c_str());
  CHECK(d.names().empty());
  return e;
}

}  // namespace

TEST_CASE("SIGINT stops tessera run: exit 130 and no file left") {
  const Ended e = interrupt_run(SIGINT);
  CHECK(e.status == 130);
  // One line says what was lost (other lines, such as the work size, may come before it); no
  // progress bar is drawn into a file.
  CHECK(e.err.find("tessera: interrupted by SIGINT after ") != std::string::npos);
  CHECK(e.err.find('\r') == std::string::npos);
  CHECK(e.err.find("configurations; no output written") != std::string::npos);
}

TEST_CASE("SIGTERM stops tessera run: exit 143 and no file left") {
  const Ended e = interrupt_run(SIGTERM);
  CHECK(e.status == 143);
  CHECK(e.err.find("tessera: interrupted by SIGTERM after ") != std::string::npos);
}

TEST_CASE("SIGHUP stops tessera run: exit 129 and no file left") {
  const Ended e = interrupt_run(SIGHUP);
  CHECK(e.status == 129);
  CHECK(e.err.find("tessera: interrupted by SIGHUP after ") != std::string::npos);
}

TEST_CASE("a file-size limit makes the write fail: exit 1 and no file left") {
  // `ulimit -f 8` (8 KiB): the CSV outgrows it; SIGXFSZ would kill the process and leave the
  // temporary files, the write's failure (EFBIG) is reported instead.
  TempDir d;
  const std::string err =
      (fs::temp_directory_path() / ("tessera-fsize-" + std::to_string(::getpid()))).string();
  const std::string cmd = "ulimit -f 8; TESSERA_PLUGIN_PATH= " + std::string(TESSERA_BINARY_DIR) +
                          "/bin/tessera run -q " + TESSERA_SOURCE_DIR +
                          "/scenarios/llama3.1-70b-decode-4k-h100.yaml --csv " + (d / "all.csv") +
                          " --json " + (d / "summary.json") + " >/dev/null 2>" + err;
  const int rc = std::system(("sh -c '" + cmd + "'").c_str());
  REQUIRE(WIFEXITED(rc));
  CHECK(WEXITSTATUS(rc) == 1);
  const std::string text = slurp(err);
  ::unlink(err.c_str());
  CHECK(text.find("write failed") != std::string::npos);
  CHECK(d.names().empty());
}

// A plugin call that never returns (the broken latency fixture's `time_step_hang`) never reaches
// the study's cancellation poll: the watchdog (framework/app/signals.cpp) ends the process 1 s
// after SIGINT with exit 130, its temporary outputs removed, saying why.
TEST_CASE("in-process: SIGINT ends tessera run within a second even while a plugin call blocks") {
  TempDir d;
  const std::string scenario = fault_scenario(d, "hang", "time_step_hang", "");
  const std::string err_path =
      (fs::temp_directory_path() / ("tessera-watchdog-" + std::to_string(::getpid()))).string();
  const std::string exe = std::string(TESSERA_BINARY_DIR) + "/bin/tessera";
  // In this process (--no-isolate): with isolation the parent stops its workers itself
  // (test_isolation.cpp).
  const pid_t pid =
      spawn_quiet({exe, "run", scenario, "--threads", "1", "--json", d / "out.json", "--no-isolate",
                   "--plugin-path", std::string(TESSERA_TEST_PLUGIN_DIR) + "/broken"},
                  err_path);
  REQUIRE(pid >= 0);
  // Until the temporary output exists (the study has started), then a little longer: the one
  // evaluation thread is inside time_step.
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (d.names().empty() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto sent = std::chrono::steady_clock::now();
  ::kill(pid, SIGINT);
  const int status = wait_for(pid, 10);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
  const std::string err = slurp(err_path);
  ::unlink(err_path.c_str());
  INFO("stderr: " << err);
  CHECK(status == 130);
  CHECK(took < 3.0);  // the watchdog's 1 s, and the process's end on a loaded machine
  CHECK(err.find("tessera: interrupted by SIGINT; the study did not stop within 1 s") != std::string::npos);
  CHECK(d.names() == std::vector<std::string>{"hang.yaml"});  // the temporary --json output removed
}

// A plugin's printf never reaches the results: `--json -` stays JSON, and its lines come out on
// stderr marked (framework/app/result_stream.hpp).
TEST_CASE("in-process: a plugin's stdout goes to stderr marked - never into --json -") {
  TempDir d;
  const std::string scenario = fault_scenario(
      d, "print", "time_step_print", "sweep: {parallelism: {tp: [1, 2], cp: [1], pp: [1], dp: [1]}}\n");
  const std::string out = d / "stdout.txt", err = d / "stderr.txt";
  const std::string cmd = "TESSERA_PLUGIN_PATH= " + std::string(TESSERA_BINARY_DIR) + "/bin/tessera run " +
                          scenario + " -q --no-isolate --json - --plugin-path " +
                          std::string(TESSERA_TEST_PLUGIN_DIR) + "/broken >" + out + " 2>" + err;
  const int rc = std::system(("sh -c '" + cmd + "'").c_str());
  REQUIRE(WIFEXITED(rc));
  CHECK(WEXITSTATUS(rc) == 0);
  const std::string json = slurp(out), text = slurp(err);
  INFO("stdout: " << json.substr(0, 300) << "\nstderr: " << text.substr(0, 600));
  CHECK(json.find("hello from a plugin") == std::string::npos);
  CHECK(json.rfind("{", 0) == 0);  // the document alone
  CHECK(json.find("\"provenance\"") != std::string::npos);
  CHECK(text.find("tessera: plugin stdout: hello from a plugin's printf\n") != std::string::npos);
}

// A thread a plugin leaves running (the broken latency fixture's `create_leak`: it keeps using
// the library's static object) cannot crash the process after the results are written: the
// library is never unloaded and the executable ends without static destructors (app/main.cpp).
// Before, every run ended in SIGSEGV after writing its results.
TEST_CASE("in-process: a thread a plugin leaves running does not crash tessera after its results") {
  TempDir d;
  const std::string scenario = fault_scenario(
      d, "leak", "create_leak", "sweep: {parallelism: {tp: [1, 2], cp: [1], pp: [1], dp: [1]}}\n");
  for (int run = 0; run < 5; ++run) {
    const std::string json = d / "out.json", err = d / "stderr.txt";
    const std::string cmd = "TESSERA_PLUGIN_PATH= " + std::string(TESSERA_BINARY_DIR) + "/bin/tessera run " +
                            scenario + " -q --no-isolate --json " + json + " --plugin-path " +
                            std::string(TESSERA_TEST_PLUGIN_DIR) + "/broken >/dev/null 2>" + err;
    const int rc = std::system(("sh -c '" + cmd + "'").c_str());
    INFO("run " << run << ", stderr: " << slurp(err));
    REQUIRE(WIFEXITED(rc));
    CHECK(WEXITSTATUS(rc) == 0);
    CHECK(slurp(json).find("\"provenance\"") != std::string::npos);
  }
}
