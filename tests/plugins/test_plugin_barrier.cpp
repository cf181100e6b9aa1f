// The failure barrier on every call into plugin code (host/guarded_plugins.hpp), end to end:
// each broken fixture of tests/plugins/fixtures/broken_*.cpp, with each of its faults, through
// every command that calls it (run, compare, explore, sensitivity, explain; compare and
// explain never call a search). Each run must end with exit 1 (2 for an InputError from the
// plugin) and a message naming the plugin, its version and path, and what went wrong; never a
// signal, never a hang.
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "../outputs/output_test_util.hpp"
#include "fixture_paths.hpp"
#include "tessera_build_paths.hpp"

using tessera::test::fixture_dir;
using tessera::test::fixture_lib;
using tessera::test::spit;
using tessera::test::TempDir;

namespace {

struct Fault {
  const char* fault;
  // Substrings of stderr: the first right after the plugin's name, the others anywhere.
  std::vector<std::string> expect;
  int exit = 1;
  bool per_configuration = false;  // raised while evaluating: the configuration is named
};

const char* kCreateStd = " failed to create: create exploded";
const char* kCreateOther = " failed to create: unknown exception (not derived from std::exception)";
const char* kCreateNull = " failed to create: the factory returned no object";
const char* kOther = ": unknown exception (not derived from std::exception)";

const std::vector<Fault> kLatencyFaults = {
    {"create_std", {kCreateStd}},
    {"create_other", {kCreateOther}},
    {"create_null", {kCreateNull}},
    {"time_step_std", {": time_step exploded"}, 1, true},
    {"time_step_other", {kOther}, 1, true},
    {"time_step_input", {": time_step rejects this scenario"}, 2},
    {"time_step_nan", {": time_step returned stage ", " with visible_s = nan; "}, 1, true},
    {"time_step_negative", {": time_step returned stage ", " with memory_s = -1e-06; "}, 1, true},
    {"time_step_infinite", {": time_step returned stage ", " with compute_s = inf; "}, 1, true},
    {"time_step_overflow", {": time_step returned 33 stages (a StageList holds 0 to 32)"}, 1, true},
};

const std::vector<Fault> kMemoryFaults = {
    {"create_std", {kCreateStd}},
    {"create_other", {kCreateOther}},
    {"create_null", {kCreateNull}},
    {"evaluate_std", {": evaluate exploded"}, 1, true},
    {"evaluate_other", {kOther}, 1, true},
    {"evaluate_nan",
     {": evaluate returned kv_bytes = nan; byte counts must be finite and non-negative"},
     1,
     true},
    {"evaluate_negative", {": evaluate returned used_bytes = -1; "}, 1, true},
    {"evaluate_infinite", {": evaluate returned budget_bytes = inf; "}, 1, true},
};

const std::vector<Fault> kObjectiveFaults = {
    {"create_std", {kCreateStd}},
    {"create_other", {kCreateOther}},
    {"create_null", {kCreateNull}},
    {"direction_std", {": direction exploded"}},
    {"direction_other", {kOther}},
    {"direction_invalid", {": direction() returned 7 (neither minimize nor maximize)"}},
    {"unit_std", {": unit exploded"}},
    {"unit_other", {kOther}},
    {"unit_null", {": unit() returned a null pointer"}},
    {"evaluate_std", {": evaluate exploded"}, 1, true},
    {"evaluate_other", {kOther}, 1, true},
    {"evaluate_nan", {": evaluate returned nan; an objective's value must be finite"}, 1, true},
    {"evaluate_infinite", {": evaluate returned -inf; an objective's value must be finite"}, 1, true},
};

const std::vector<Fault> kSearchFaults = {
    {"create_std", {kCreateStd}},
    {"create_other", {kCreateOther}},
    {"create_null", {kCreateNull}},
    {"start_std", {": start exploded"}},
    {"start_other", {kOther}},
    {"start_null", {": start returned no SearchRun (a null pointer)"}},
    {"propose_std", {": propose exploded"}},
    {"propose_other", {kOther}},
    {"propose_overflow", {": propose returned ", " configurations for a buffer of "}},
    {"propose_repeat",
     {": proposed nothing new in 1001 rounds in a row (only configurations it had proposed before), which "
      "exceeds the limit search.stale_rounds (1000); raise it with --limit search.stale_rounds=N"}},
    {"propose_endless", {": proposed 193 distinct configurations, more than the grid's 192 points"}},
    {"receive_std", {": receive exploded"}},
    {"receive_other", {kOther}},
};

// A small scenario (Llama-3.1-8B decode on a DGX H100, tp 1-8, two HBM bandwidths to explore)
// with one plugin replaced by the broken fixture of `kind` failing with `fault`.
std::string scenario(const std::string& kind, const std::string& fault) {
  const std::string src = TESSERA_SOURCE_DIR;
  const std::string broken = "{name: broken_" + kind + ", fault: " + fault + "}";
  const std::string latency = kind == "latency" ? "[" + broken + ", overlap]" : "[overlap, roofline]";
  const std::string memory = kind == "memory" ? broken : "standard";
  const std::string search = kind == "search" ? broken : "exhaustive";
  const std::string objectives = kind == "objective" ? "[" + broken + ", pes]" : "[latency, pes]";
  return "schema_version: 1\nkind: scenario\nname: barrier-" + kind + "-" + fault + "\nmodel: " + src +
         "/models/llama3.1-8b.yaml\nmachine: " + src +
         "/machines/dgx-h100.yaml\n"
         "workload: {mode: decode, context: 4K, batch: 1}\n"
         "plugins:\n  latency: " +
         latency + "\n  memory: " + memory + "\n  search: " + search + "\n  objectives: " + objectives +
         "\nsweep:\n  parallelism:\n    tp: [1, 2, 4, 8]\n  hardware:\n"
         "    machine.pe.hbm.bandwidth: [2 TB/s, 3 TB/s]\n";
}

std::string command_args(const std::string& command) {
  if (command == "explain") return " --config tp=2";
  if (command == "sensitivity") return " --parallelism --hardware";
  return "";
}

// Runs `tessera COMMAND FILE` (60 s at most) and returns its stderr; `status` gets the exit
// status, or 128 + the signal for a crash (as the shell reports it).
std::string run_tessera(const std::string& command, const std::string& file, int& status) {
  const std::string cmd = "timeout -s KILL 60 " + std::string(TESSERA_BINARY_DIR) + "/bin/tessera " +
                          command + " " + file + command_args(command) + " -q --plugin-path " +
                          fixture_dir("broken") + " 2>&1 >/dev/null";
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::string err;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) err.append(buf, n);
  const int rc = ::pclose(p);
  status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc);
  return err;
}

void check_command(const std::string& kind, const std::vector<Fault>& faults, const std::string& command) {
  const TempDir dir;
  const std::string prefix = "plugin " + kind + "/broken_" + kind + " 0.0.1 (" +
                             fixture_lib("broken", kind + "_broken_" + kind) + ")";
  for (const Fault& f : faults) {
    const std::string file = dir / (std::string(f.fault) + ".yaml");
    spit(file, scenario(kind, f.fault));
    int status = -1;
    const std::string err = run_tessera(command, file, status);
    INFO("tessera " << command << " with " << kind << " fault " << f.fault << "\nstderr: " << err);
    CHECK(status == f.exit);
    CHECK(err.find(prefix) != std::string::npos);
    for (std::size_t i = 0; i < f.expect.size(); ++i)
      CHECK(err.find(i == 0 ? prefix + f.expect[i] : f.expect[i]) != std::string::npos);
    if (f.per_configuration) CHECK(err.find("; at configuration cp=1,tp=") != std::string::npos);
    CHECK(err.find("terminate called") == std::string::npos);
  }
}

}  // namespace

// The well-behaved fixtures are well-behaved: every command succeeds with `fault: none`.
TEST_CASE("barrier: the broken fixtures without a fault run through every command") {
  const TempDir dir;
  for (const std::string kind : {"latency", "memory", "objective", "search"}) {
    const std::string file = dir / (kind + ".yaml");
    spit(file, scenario(kind, "none"));
    for (const std::string command : {"run", "compare", "explore", "sensitivity", "explain"}) {
      int status = -1;
      const std::string err = run_tessera(command, file, status);
      INFO("tessera " << command << " with " << kind << " fault none\nstderr: " << err);
      CHECK(status == 0);
    }
  }
}

TEST_CASE("barrier: a broken latency model through run") { check_command("latency", kLatencyFaults, "run"); }
TEST_CASE("barrier: a broken latency model through compare") {
  check_command("latency", kLatencyFaults, "compare");
}
TEST_CASE("barrier: a broken latency model through explore") {
  check_command("latency", kLatencyFaults, "explore");
}
TEST_CASE("barrier: a broken latency model through sensitivity") {
  check_command("latency", kLatencyFaults, "sensitivity");
}
TEST_CASE("barrier: a broken latency model through explain") {
  check_command("latency", kLatencyFaults, "explain");
}

TEST_CASE("barrier: a broken memory model through run") { check_command("memory", kMemoryFaults, "run"); }
TEST_CASE("barrier: a broken memory model through compare") {
  check_command("memory", kMemoryFaults, "compare");
}
TEST_CASE("barrier: a broken memory model through explore") {
  check_command("memory", kMemoryFaults, "explore");
}
TEST_CASE("barrier: a broken memory model through sensitivity") {
  check_command("memory", kMemoryFaults, "sensitivity");
}
TEST_CASE("barrier: a broken memory model through explain") {
  check_command("memory", kMemoryFaults, "explain");
}

TEST_CASE("barrier: a broken objective through run") { check_command("objective", kObjectiveFaults, "run"); }
TEST_CASE("barrier: a broken objective through compare") {
  check_command("objective", kObjectiveFaults, "compare");
}
TEST_CASE("barrier: a broken objective through explore") {
  check_command("objective", kObjectiveFaults, "explore");
}
TEST_CASE("barrier: a broken objective through sensitivity") {
  check_command("objective", kObjectiveFaults, "sensitivity");
}
TEST_CASE("barrier: a broken objective through explain") {
  check_command("objective", kObjectiveFaults, "explain");
}

TEST_CASE("barrier: a broken search through run") { check_command("search", kSearchFaults, "run"); }
TEST_CASE("barrier: a broken search through explore") { check_command("search", kSearchFaults, "explore"); }
TEST_CASE("barrier: a broken search through sensitivity") {
  check_command("search", kSearchFaults, "sensitivity");
}
