// Studies run whole in one isolated worker (studies/plugin_isolation.hpp WorkerShare::whole,
// docs/plugin-guide.md "What the host guarantees"): `serve`, `compare`, `sensitivity`, `explain`
// and a serve scenario's `explore` with the broken latency fixture loaded from outside the shipped
// folder. A plugin that segfaults, aborts, calls exit() or hangs there ends the command with exit
// 1 and an error naming the plugin, the call and the configuration, no output and no temporary
// file; Ctrl-C stops the worker at once; a plugin's printf and a thread it leaves running change
// nothing; and the results are the same, byte for byte, as in one process.
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
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

// `tessera COMMAND SCENARIO --plugin-path <the fixture's folder> MORE`.
std::string broken_args(const std::string& command, const std::string& scenario, const std::string& more) {
  return command + " " + scenario + " --plugin-path " + broken_plugin_dir() + " " + more;
}

const char* const kWhole =
    "while running the whole study (in this one worker), in plugin latency/broken_latency 0.0.1 (";

}  // namespace

TEST_CASE("whole-study isolation: a serve plugin that segfaults aborts or calls exit is named") {
  struct Case {
    const char* fault;
    const char* how;
  };
  for (const Case c : {Case{"time_step_segv", "died by signal 11 (Segmentation fault) "},
                       Case{"time_step_abort", "died by signal 6 (Aborted) "},
                       Case{"time_step_exit", "ended by exit() from plugin code (exit status 3) "}}) {
    TempDir d;
    const std::string scenario = serve_fault_scenario(d, "crash", c.fault, "");
    // --csv is written as points come: its temporary file exists when the worker dies.
    const IsolatedRun o = run_tessera_cli(
        broken_args("serve", scenario, "-q --csv " + d / "p.csv" + " --json " + d / "p.json"));
    INFO(c.fault << "\nstderr: " << o.err);
    CHECK(o.status == 1);
    CHECK(o.err.find("tessera: error: a worker process (pid ") == 0);
    CHECK(o.err.find(std::string(c.how) + kWhole + broken_plugin_dir() +
                     "/libtessera_latency_broken_latency.so), call time_step, configuration cp=1,tp=") !=
          std::string::npos);
    CHECK(o.err.find("no result was written") != std::string::npos);
    CHECK(o.out.empty());
    CHECK(d.names() == std::vector<std::string>{"crash.yaml"});  // no output, no temporary file left
  }
}

TEST_CASE("whole-study isolation: compare sensitivity explain and a serve explore name a crash") {
  TempDir d;
  const std::string step = fault_scenario(d, "step", "time_step_segv", "");
  const std::string serve = serve_fault_scenario(
      d, "grid", "time_step_segv", "", "  hardware: {machine.pe.hbm.bandwidth: [2 TB/s, 3.35 TB/s]}\n");
  for (const std::string& args :
       {broken_args("compare", step, "-q --latency broken_latency,roofline"),
        broken_args("sensitivity", step, "-q"), broken_args("explain", step, "-q --config tp=2"),
        broken_args("explore", serve, "-q")}) {
    const IsolatedRun o = run_tessera_cli(args + " --json " + d / "out.json");
    INFO(args << "\nstderr: " << o.err);
    CHECK(o.status == 1);
    CHECK(o.err.find(std::string("died by signal 11 (Segmentation fault) ") + kWhole) != std::string::npos);
    CHECK(o.err.find("call time_step") != std::string::npos);
    CHECK(o.out.empty());
    CHECK(d.names() == std::vector<std::string>{"grid.yaml", "step.yaml"});
  }
}

TEST_CASE("whole-study isolation: a serve plugin call past plugin.unit_seconds is stopped") {
  TempDir d;
  const std::string scenario = serve_fault_scenario(d, "hang", "time_step_hang", "");
  const IsolatedRun o = run_tessera_cli(
      broken_args("serve", scenario, "-q --limit plugin.unit_seconds=1 --json " + d / "o.json"));
  INFO("stderr: " << o.err);
  CHECK(o.status == 1);
  CHECK(o.err.find(
            "stayed 1 s in a plugin call that did not return (the limit plugin.unit_seconds; raise it with "
            "--limit plugin.unit_seconds=SECONDS) and was stopped") != std::string::npos);
  CHECK(o.err.find("call time_step") != std::string::npos);
  CHECK(o.seconds < 10);  // the limit, the worker's last words (1 s) and the start
  CHECK(d.names() == std::vector<std::string>{"hang.yaml"});
  CHECK(processes_naming(scenario) == 0);
}

TEST_CASE("whole-study isolation: SIGINT and SIGTERM stop a serve worker stuck in a plugin call at once") {
  struct Case {
    int signal;
    int status;
    const char* said;
  };
  for (const Case c : {Case{SIGINT, 130, "tessera: interrupted by SIGINT"},
                       Case{SIGTERM, 143, "tessera: interrupted by SIGTERM"}}) {
    TempDir d;
    const std::string scenario = serve_fault_scenario(d, "hang", "time_step_hang", "");
    // The worker's temporary output exists once it reaches its study; then it is in time_step.
    const InterruptedRun r = interrupt_when_stuck(
        {"serve", scenario, "--csv", d / "p.csv", "--plugin-path", broken_plugin_dir(), "--threads", "2"}, d,
        scenario, c.signal);
    INFO("signal " << c.signal << "\nstderr: " << r.err);
    CHECK(r.processes_before == 2);  // this command and its worker
    CHECK(r.status == c.status);
    CHECK(r.seconds < 3.0);
    CHECK(r.err.find(c.said) != std::string::npos);
    CHECK(d.names() == std::vector<std::string>{"hang.yaml"});  // the worker's temporary file removed
    CHECK(processes_naming(scenario) == 0);
  }
}

TEST_CASE("whole-study isolation: serve compare sensitivity and explain give the in-process results") {
  TempDir d;
  // serving.requests: the best point simulated and the top 2 searched for capacity (work units).
  const std::string serve = serve_fault_scenario(
      d, "serve", "none", "", "", ", requests: {arrival: poisson, rate: 20, count: 200, seed: 3}");
  const std::string step = fault_scenario(d, "step", "none", "");
  const std::string many = " --latency broken_latency,roofline";
  for (const std::string& args :
       {broken_args("serve", serve, "-qj2 --simulate-top 2 --csv " + d / "X.csv"),
        broken_args("compare", step, "-q --threads 2" + many), broken_args("sensitivity", step, "-qj2"),
        broken_args("explain", step, "-q --config tp=2")}) {
    const IsolatedRun isolated = run_tessera_cli(args + " --json " + d / "a.json");
    const std::string csv = slurp(d / "X.csv");
    const IsolatedRun here = run_tessera_cli(args + " --no-isolate --json " + d / "b.json");
    INFO(args << "\nstderr: " << isolated.err << here.err);
    REQUIRE(isolated.status == 0);
    REQUIRE(here.status == 0);
    CHECK(isolated.out == here.out);  // the tables
    CHECK(slurp(d / "X.csv") == csv);
    CHECK(document_without_command(d / "a.json") == document_without_command(d / "b.json"));
  }
}

TEST_CASE(
    "whole-study isolation: printf from a serve plugin leaves --json - whole and a leaked thread nothing") {
  TempDir d;
  const IsolatedRun o = run_tessera_cli(
      broken_args("serve", serve_fault_scenario(d, "print", "time_step_print", ""), "-q --json -"));
  INFO("stderr: " << o.err.substr(0, 400));
  CHECK(o.status == 0);
  CHECK(nlohmann::json::parse(o.out).contains("provenance"));
  CHECK(o.err.find("tessera: plugin stdout: hello from a plugin's printf\n") != std::string::npos);
  const std::string leaking = serve_fault_scenario(d, "leak", "create_leak", "");
  for (int i = 0; i < 3; ++i)
    CHECK(run_tessera_cli(broken_args("serve", leaking, "-q --json " + d / "leak.json")).status == 0);
}

TEST_CASE("whole-study isolation: the worker's own refusal is said once with its exit status") {
  TempDir d;
  const std::string scenario = serve_fault_scenario(d, "refused", "none", "");
  // --deploy needs a framework: refused by the study, which runs in the worker.
  const IsolatedRun o = run_tessera_cli(broken_args("serve", scenario, "-q --deploy " + d / "deploy"));
  INFO("stderr: " << o.err);
  CHECK(o.status == 2);
  const std::string said = "--deploy: the scenario names no framework";
  REQUIRE(o.err.find(said) != std::string::npos);
  CHECK(o.err.find(said) == o.err.rfind(said));
}

TEST_CASE("whole-study isolation: validate-data with an added latency plugin runs in a worker") {
  TempDir d;
  const std::string csv = std::string(TESSERA_SOURCE_DIR) + "/data/measurements.csv";
  const std::string args = "validate-data " + csv + " --plugin-path " + broken_plugin_dir() +
                           " --latency broken_latency --summary -q --json ";
  // The fixture's fault when a command names it without parameters (tests/plugins/fixtures/broken_fault.hpp).
  ::setenv("TESSERA_BROKEN_FAULT", "time_step_segv", 1);
  const IsolatedRun crash = run_tessera_cli(args + d / "crash.json");
  ::unsetenv("TESSERA_BROKEN_FAULT");
  INFO("stderr: " << crash.err);
  CHECK(crash.status == 1);
  CHECK(crash.err.find(std::string("died by signal 11 (Segmentation fault) ") + kWhole) != std::string::npos);
  CHECK(crash.err.find("call time_step") != std::string::npos);
  CHECK(d.names().empty());
  const IsolatedRun isolated = run_tessera_cli(args + d / "a.json");
  const IsolatedRun here = run_tessera_cli(args + d / "b.json" + " --no-isolate");
  REQUIRE(isolated.status == 0);
  REQUIRE(here.status == 0);
  CHECK(isolated.out == here.out);
  CHECK(document_without_command(d / "a.json") == document_without_command(d / "b.json"));
}

TEST_CASE(
    "whole-study isolation: a closed stdout, a slow reader and one that leaves early behave as in one "
    "process") {
  TempDir d;
  const std::string scenario = serve_fault_scenario(d, "out", "none", "");
  const std::string exe = "TESSERA_PLUGIN_PATH= " + std::string(TESSERA_BINARY_DIR) + "/bin/tessera ";
  for (const char* mode : {"", " --no-isolate"}) {
    const int rc = std::system(
        ("sh -c '" + exe + broken_args("serve", scenario, "-q") + mode + " >&- 2>" + d / "err" + "'")
            .c_str());
    INFO("stderr: " << slurp(d / "err"));
    CHECK((WIFEXITED(rc) && WEXITSTATUS(rc) == 1));
    CHECK(slurp(d / "err").find("cannot write the results to stdout") != std::string::npos);
  }
  // 0.5 MB of --json - into a pipe nobody reads for 3 s, past a 1 s limit on plugin calls.
  const std::string big = serve_fault_scenario(d, "big", "none", "");
  const std::string cmd =
      exe + "serve " + big + " --plugin-path " + broken_plugin_dir() +
      " --set sweep.parallelism.pp=[1,2,4,8] --set sweep.serving.batch=[1,2,4,8,16,32,64,128]"
      " --set sweep.serving.token_budget=[1K,2K,4K,8K,16K] -q --json - --limit "
      "plugin.unit_seconds=1 2>" +
      d / "err" + "; echo $? >" + d / "rc";
  const int rc = std::system(("sh -c '(" + cmd + ") | (sleep 3; wc -c >" + d / "bytes" + ")'").c_str());
  INFO("stderr: " << slurp(d / "err"));
  CHECK(rc == 0);
  CHECK(slurp(d / "rc") == "0\n");
  CHECK(std::stoul(slurp(d / "bytes")) > 100000);
  // A reader that leaves early (`| head`): the end a command in one process has, no error.
  const int head = std::system(("sh -c '(" + cmd + ") | head -c 10 >/dev/null'").c_str());
  CHECK(head == 0);
  CHECK(slurp(d / "rc") == "141\n");
  CHECK(slurp(d / "err").empty());
}
