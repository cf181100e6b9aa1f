// Plugins in isolated worker processes (studies/plugin_isolation.hpp, docs/plugin-guide.md
// "What the host guarantees"): with the broken latency fixture loaded from outside the shipped
// folder, `tessera run` computes its work units in workers. A plugin that segfaults, aborts,
// calls exit() or hangs there ends the study with exit 1 and an error naming the plugin, its
// version and path, the call and the configuration, and no output; Ctrl-C stops the workers;
// a plugin's printf and a thread it leaves running change nothing; and the results are the
// same, byte for byte, as in one process.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "child_process.hpp"
#include "fault_scenario.hpp"
#include "isolated_run.hpp"
#include "output_test_util.hpp"
#include "tessera_build_paths.hpp"

using namespace tessera::test;

namespace {

const std::string kIsolationSweep =
    "sweep: {parallelism: {tp: [1, 2, 4, 8], cp: [1, 2, 4, 8], pp: [1, 2, 3, 4], dp: [1, 2, 4, 8]}}\n";

}  // namespace

TEST_CASE("isolated: a plugin that segfaults aborts or calls exit ends the study with a named error") {
  struct Case {
    const char* fault;
    const char* how;
  };
  for (const Case c :
       {Case{"time_step_segv", "died by signal 11 (Segmentation fault) in work unit "},
        Case{"time_step_abort", "died by signal 6 (Aborted) in work unit "},
        Case{"time_step_exit", "ended by exit() from plugin code (exit status 3) in work unit "}}) {
    TempDir d;
    const std::string scenario = fault_scenario(d, "crash", c.fault, kIsolationSweep);
    const IsolatedRun o = run_tessera_cli(broken_run_args(scenario, "-q --json " + d / "out.json"));
    INFO(c.fault << "\nstderr: " << o.err);
    CHECK(o.status == 1);
    CHECK(o.err.find("tessera: error: a worker process (pid ") == 0);
    CHECK(o.err.find(c.how) != std::string::npos);
    // The unit and the configuration: whichever a worker was on first (each fails at once).
    CHECK(o.err.find(" of the space's 2076 valid ones), in plugin latency/broken_latency 0.0.1 (" +
                     broken_plugin_dir() +
                     "/libtessera_latency_broken_latency.so), call time_step, configuration cp=") !=
          std::string::npos);
    CHECK(o.err.find("no result was written") != std::string::npos);
    CHECK(o.out.empty());
    CHECK(d.names() == std::vector<std::string>{"crash.yaml"});  // no output, no temporary file
  }
}

TEST_CASE("isolated: a plugin that aborts in create is named before this process creates it") {
  TempDir d;
  const std::string scenario = fault_scenario(d, "create", "create_abort", "");
  const IsolatedRun o = run_tessera_cli(broken_run_args(scenario, "-q --json " + d / "out.json"));
  INFO("stderr: " << o.err);
  CHECK(o.status == 1);
  CHECK(o.err.find("died by signal 6 (Aborted) while preparing the study (before its first work unit), in "
                   "plugin latency/broken_latency 0.0.1 (") != std::string::npos);
  CHECK(o.err.find(", call create;") != std::string::npos);
  CHECK(d.names() == std::vector<std::string>{"create.yaml"});
}

TEST_CASE("isolated: a plugin call past plugin.unit_seconds is stopped and named") {
  TempDir d;
  const std::string scenario = fault_scenario(d, "hang", "time_step_hang", "");
  const IsolatedRun o =
      run_tessera_cli(broken_run_args(scenario, "-q --limit plugin.unit_seconds=1 --json " + d / "out.json"));
  INFO("stderr: " << o.err);
  CHECK(o.status == 1);
  CHECK(o.err.find(
            "passed the per-unit time limit of 1 s (the limit plugin.unit_seconds; raise it with --limit "
            "plugin.unit_seconds=SECONDS)") != std::string::npos);
  CHECK(o.err.find("call time_step, configuration cp=1,tp=1,") != std::string::npos);
  CHECK(o.seconds < 10);  // the limit, the worker's last words (1 s) and the start
  CHECK(d.names() == std::vector<std::string>{"hang.yaml"});
  CHECK(processes_naming(scenario) == 0);
}

TEST_CASE("isolated: SIGINT stops the workers and the study at once even while a plugin call blocks") {
  TempDir d;
  const std::string scenario = fault_scenario(d, "hang", "time_step_hang", "");
  // The temporary output exists once the workers are ready; then they are in time_step.
  const InterruptedRun r = interrupt_when_stuck(
      {"run", scenario, "--json", d / "out.json", "--plugin-path", broken_plugin_dir(), "--threads", "2"}, d,
      scenario, SIGINT);
  INFO("stderr: " << r.err);
  CHECK(r.processes_before == 3);  // this run and its two workers
  CHECK(r.status == 130);
  CHECK(r.seconds < 3.0);
  CHECK(r.err.find("tessera: interrupted by SIGINT") != std::string::npos);
  CHECK(d.names() == std::vector<std::string>{"hang.yaml"});
  CHECK(processes_naming(scenario) == 0);  // no worker left behind
}

TEST_CASE("isolated and in-process runs give the same results byte for byte") {
  TempDir d;
  const std::string scenario = fault_scenario(d, "same", "none", kIsolationSweep);
  // -qj3: grouped short options reach the workers as given.
  const IsolatedRun isolated =
      run_tessera_cli(broken_run_args(scenario, "-qj3 --json " + d / "a.json" + " --csv " + d / "a.csv"));
  const IsolatedRun here = run_tessera_cli(broken_run_args(
      scenario, "-q --no-isolate --threads 2 --json " + d / "b.json" + " --csv " + d / "b.csv"));
  INFO("stderr: " << isolated.err << here.err);
  REQUIRE(isolated.status == 0);
  REQUIRE(here.status == 0);
  CHECK(isolated.out == here.out);  // the tables
  CHECK(slurp(d / "a.csv") == slurp(d / "b.csv"));
  CHECK(document_without_command(d / "a.json") == document_without_command(d / "b.json"));
  // A shipped-only scenario forced into workers, too.
  const std::string shipped = std::string(TESSERA_SOURCE_DIR) + "/scenarios/llama3.1-70b-decode-128k.yaml";
  const IsolatedRun forced =
      run_tessera_cli("run " + shipped + " -q --isolate-plugins --json " + d / "c.json");
  const IsolatedRun plain = run_tessera_cli("run " + shipped + " -q --json " + d / "e.json");
  REQUIRE(forced.status == 0);
  REQUIRE(plain.status == 0);
  CHECK(document_without_command(d / "c.json") == document_without_command(d / "e.json"));
}

TEST_CASE("isolated: a checkpoint resumes with isolation on or off and a raised unit time limit") {
  // The default scenario widened to 72,105 configurations: 5 units of a checkpoint's fixed size.
  TempDir d;
  const std::string scenario = std::string(TESSERA_SOURCE_DIR) + "/scenarios/llama3.1-70b-decode-128k.yaml";
  const std::string wide =
      " --set sweep.parallelism.dp=[1,2,3,4,5,6,7,8,12,16,24,32] --set "
      "sweep.parallelism.pp=[1,2,3,4,5,6,7,8,10,12,16]"
      " --set sweep.parallelism.cp=[1,2,3,4,6,8,12,16,24,32,48,64,96] --set "
      "sweep.parallelism.tp=[1,2,4,8,16,32,64]";
  const std::string ck = d / "run.ckpt";
  const IsolatedRun whole =
      run_tessera_cli("run " + scenario + wide + " -qj2 --isolate-plugins --checkpoint " + ck +
                      " --checkpoint-every 0 --csv " + d / "a.csv");
  INFO("stderr: " << whole.err);
  REQUIRE(whole.status == 0);
  // Cut after the third record, as a kill there would leave it.
  std::string bytes = slurp(ck);
  std::size_t at = 0;
  for (int i = 0; i < 4 && at != std::string::npos; ++i) at = bytes.find("TSCKREC1", at + 1);
  REQUIRE(at != std::string::npos);
  std::ofstream(ck, std::ios::binary | std::ios::trunc) << bytes.substr(0, at);
  const IsolatedRun resumed = run_tessera_cli(
      "run " + scenario + wide + " -j 2 --no-isolate --limit plugin.unit_seconds=1200 --resume " + ck +
      " --csv " + d / "b.csv");
  INFO("stderr: " << resumed.err);
  REQUIRE(resumed.status == 0);
  CHECK(resumed.err.find("resumed after 3 of 5 work units") != std::string::npos);
  CHECK(slurp(d / "a.csv") == slurp(d / "b.csv"));
}

TEST_CASE(
    "isolated: a plugin's printf reaches stderr marked and a thread it leaves running changes nothing") {
  TempDir d;
  const std::string printing = fault_scenario(d, "print", "time_step_print", kIsolationSweep);
  const IsolatedRun o = run_tessera_cli(broken_run_args(printing, "-q --json -"));
  INFO("stderr: " << o.err.substr(0, 400));
  CHECK(o.status == 0);
  CHECK(o.out.rfind("{", 0) == 0);
  CHECK(nlohmann::json::parse(o.out).contains("provenance"));
  CHECK(o.err.find("tessera: plugin stdout: hello from a plugin's printf\n") != std::string::npos);
  const std::string leaking = fault_scenario(d, "leak", "create_leak", kIsolationSweep);
  for (int i = 0; i < 3; ++i) {
    const IsolatedRun l = run_tessera_cli(broken_run_args(leaking, "-q --json " + d / "leak.json"));
    CHECK(l.status == 0);
  }
}

TEST_CASE("isolation flags: --isolate-plugins and --no-isolate together are refused") {
  TempDir d;
  const std::string scenario = fault_scenario(d, "both", "none", "");
  const IsolatedRun o = run_tessera_cli(broken_run_args(scenario, "--isolate-plugins --no-isolate"));
  CHECK(o.status == 2);
  CHECK(o.err.find("--isolate-plugins and --no-isolate: give one of them, not both") != std::string::npos);
}

TEST_CASE("isolation flags: TESSERA_UNIT_WORKER left in the environment is ignored and said") {
  TempDir d;
  const std::string scenario = fault_scenario(d, "stray", "none", "");
  const IsolatedRun o = run_tessera_cli("run " + scenario + " --plugin-path " + broken_plugin_dir() +
                                        " -q --no-isolate --json " + d / "out.json");
  const TempDir logs;
  const std::string cmd = "TESSERA_PLUGIN_PATH= TESSERA_UNIT_WORKER=3:1 " + std::string(TESSERA_BINARY_DIR) +
                          "/bin/tessera run " + scenario + " --plugin-path " + broken_plugin_dir() +
                          " -q --json " + d / "env.json" + " 3>/dev/null 2>" + logs / "err";
  const int rc = std::system(("sh -c '" + cmd + "'").c_str());
  REQUIRE(WIFEXITED(rc));
  CHECK(WEXITSTATUS(rc) == 0);
  CHECK(slurp(logs / "err")
            .find("tessera: warning: ignoring TESSERA_UNIT_WORKER (set only by tessera for its "
                  "worker processes)") != std::string::npos);
  REQUIRE(o.status == 0);
  CHECK(document_without_command(d / "env.json") == document_without_command(d / "out.json"));
}

// explore: a step scenario's hardware points are the work units (core/workers/process_executor.hpp).
const std::string kIsolationHardware =
    "sweep: {parallelism: {tp: [1, 2, 4, 8], cp: [1, 2], pp: [1, 2], dp: [1]},\n"
    "        hardware: {machine.pe.hbm.bandwidth: [1 TB/s, 2 TB/s, 4 TB/s], machine.pe.flops.bf16: [500 "
    "TFLOP/s, "
    "1000 TFLOP/s]}}\n";

TEST_CASE("isolated explore: a crash in a hardware point is named and the results match one process") {
  TempDir d;
  const std::string crash = fault_scenario(d, "crash", "time_step_abort", kIsolationHardware);
  const IsolatedRun o = run_tessera_cli("explore " + crash + " --plugin-path " + broken_plugin_dir() +
                                        " -q --json " + d / "x.json");
  INFO("stderr: " << o.err);
  CHECK(o.status == 1);
  CHECK(o.err.find("died by signal 6 (Aborted) in work unit ") != std::string::npos);
  CHECK(o.err.find(" of 6 (hardware point ") != std::string::npos);
  CHECK(o.err.find("call time_step, configuration cp=") != std::string::npos);
  CHECK(d.names() == std::vector<std::string>{"crash.yaml"});
  const std::string fine = fault_scenario(d, "fine", "none", kIsolationHardware);
  const std::string common = " --plugin-path " + broken_plugin_dir() + " -qj2";
  const IsolatedRun isolated =
      run_tessera_cli("explore " + fine + common + " --json " + d / "a.json" + " --csv " + d / "a.csv");
  const IsolatedRun here = run_tessera_cli("explore " + fine + common + " --no-isolate --json " +
                                           d / "b.json" + " --csv " + d / "b.csv");
  INFO("stderr: " << isolated.err << here.err);
  REQUIRE(isolated.status == 0);
  REQUIRE(here.status == 0);
  CHECK(isolated.out == here.out);
  CHECK(slurp(d / "a.csv") == slurp(d / "b.csv"));
  CHECK(document_without_command(d / "a.json") == document_without_command(d / "b.json"));
}
