// The failure barrier on every call into plugin code (host/guarded_plugins.hpp), end to end:
// each broken fixture of tests/plugins/fixtures/broken_*.cpp, with each of its faults, through
// every command that calls it (run, compare, explore, sensitivity, explain; compare and
// explain never call a search). Each run must end with exit 1 (2 for an InputError from the
// plugin) and a message naming the plugin, its version and path, and what went wrong; never a
// signal, never a hang.
#include <sys/wait.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
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
    {"time_step_empty", {": time_step returned 0 stages for a step of ", "never leave one out"}, 1, true},
    {"time_step_fewer", {": time_step returned ", " stages for a step of ", "never leave one out"}, 1, true},
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
    {"propose_endless", {": proposed 129 distinct configurations, more than the grid's 128 points"}},
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

namespace {

// `tessera COMMAND FILE ARGS` (60 s at most): stdout and stderr apart, and the exit status.
struct Ran {
  int status = -1;
  std::string out, err;
};
Ran run_split(const std::string& command, const std::string& file, const std::string& args,
              const std::string& plugin_dir) {
  const TempDir dir;
  const std::string err_file = dir / "stderr";
  const std::string cmd = "timeout -s KILL 60 " + std::string(TESSERA_BINARY_DIR) + "/bin/tessera " +
                          command + " " + file + " " + args + " --plugin-path " + plugin_dir + " 2>" +
                          err_file;
  Ran r;
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p);
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int rc = ::pclose(p);
  r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc);
  if (FILE* f = std::fopen(err_file.c_str(), "r")) {
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) r.err.append(buf, n);
    std::fclose(f);
  }
  return r;
}

// The best line's latency as printed ("12.58 ms"), "" when there is none.
std::string best_latency(const std::string& out) {
  const std::size_t best = out.find("\nbest ");
  if (best == std::string::npos) return "";
  const std::size_t at = out.find("latency ", best);
  if (at == std::string::npos) return "";
  const std::size_t unit = out.find(" ms", at);
  return unit == std::string::npos ? "" : out.substr(at + 8, unit + 3 - (at + 8));
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size())
    s.replace(at, from.size(), to);
  return s;
}

}  // namespace

// Appended stages stay allowed (docs/plugin-guide.md §10): they are timed (the fixture appends
// one of 1 s), while the accounting reads the first work.size.
TEST_CASE("host checks: a latency model may append stages after the work's") {
  const TempDir dir;
  spit(dir / "none.yaml", scenario("latency", "none"));
  spit(dir / "append.yaml", scenario("latency", "time_step_append"));
  const Ran none = run_split("run", dir / "none.yaml", "-q", fixture_dir("broken"));
  const Ran append = run_split("run", dir / "append.yaml", "-q", fixture_dir("broken"));
  INFO(append.err);
  CHECK(none.status == 0);
  CHECK(append.status == 0);
  CHECK(none.out.find("latency 580.6 us,") != std::string::npos);
  CHECK(append.out.find("latency 1.001 s,") != std::string::npos);
  CHECK(append.out.find("memory per gpu 2.07 GB of 73.6 GB") != std::string::npos);
}

// A plugin that writes through const_cast into the EvalContext, the model and the machine (each
// call halves the HBM bandwidth every later evaluation would read): the run fails naming it,
// never answers with the corrupted numbers.
TEST_CASE("host checks: a plugin writing into the shared context fails the run naming it") {
  const TempDir dir;
  spit(dir / "hostile.yaml", scenario("latency", "time_step_hostile"));
  const std::string prefix =
      "plugin latency/broken_latency 0.0.1 (" + fixture_lib("broken", "latency_broken_latency") + ")";
  for (const std::string command : {"run", "compare", "explore", "explain"}) {
    const Ran r = run_split(command, dir / "hostile.yaml", command == "explain" ? "--config tp=2 -q" : "-q",
                            fixture_dir("broken"));
    INFO("tessera " << command << "\nstderr: " << r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find(prefix + ": time_step wrote into the EvalContext it was handed as const") !=
          std::string::npos);
    CHECK(r.err.find("; at configuration cp=1,tp=") != std::string::npos);
    CHECK(r.out.find("best") == std::string::npos);
  }
}

// A serving plugin whose kv_fits the memory model contradicts: no point over the budget is
// ranked; the run fails naming the plugin and the memory it needs.
TEST_CASE("host checks: a serving plugin's kv_fits is checked with the memory model") {
  const TempDir dir;
  const std::string src = TESSERA_SOURCE_DIR;
  const std::string body =
      "schema_version: 1\nkind: scenario\nname: liar\nmodel: " + src +
      "/models/llama3.1-70b.yaml\nmachine: " + src +
      "/machines/dgx-h100.yaml\nworkload: {mode: serve, input: 4K, output: 1K}\n"
      "plugins: {serving: SERVING}\n"
      "sweep:\n  parallelism: {tp: [8]}\n  serving: {batch: [1, 512], token_budget: [8K]}\n";
  spit(dir / "static.yaml", replace_all(body, "SERVING", "static"));
  spit(dir / "liar.yaml", replace_all(body, "SERVING", "lying_serving"));
  const Ran honest = run_split("serve", dir / "static.yaml", "-q", fixture_dir("lying"));
  INFO(honest.err);
  CHECK(honest.status == 0);
  const Ran liar = run_split("serve", dir / "liar.yaml", "-q", fixture_dir("lying"));
  INFO(liar.err);
  CHECK(liar.status == 1);
  CHECK(
      liar.err.find("plugin serving/lying_serving 0.0.1 (" + fixture_lib("lying", "serving_lying_serving") +
                    "): evaluate returned kv_fits = true, but the memory model (memory/standard) says the KV "
                    "of 512 x 5120 tokens does not fit: weights+KV+transient ") != std::string::npos);
  CHECK(liar.err.find("; at configuration cp=1,tp=8") != std::string::npos);
  CHECK(liar.out.find("best") == std::string::npos);
}

// A scheduler plugin whose decision the engine cannot run — an unknown request, admissions beyond
// the KV capacity, a router's unknown replica — fails the serve naming it (exit 1), with no
// simulated result; with no fault it runs.
TEST_CASE("host checks: a scheduler plugin's decisions are checked against the engine") {
  const TempDir dir;
  const std::string src = TESSERA_SOURCE_DIR;
  const std::string body =
      "schema_version: 1\nkind: scenario\nname: sched\nmodel: " + src +
      "/models/llama3.1-8b.yaml\nmachine: " + src +
      "/machines/dgx-h100.yaml\nworkload: {mode: serve, input: 2K, output: 128}\n"
      "plugins: {scheduler: {name: hostile_scheduler, fault: FAULT}}\n"
      "sweep:\n  parallelism: {tp: [1], dp: [2]}\n  serving: {batch: [8], token_budget: [0]}\n"
      "serving:\n  requests: {arrival: poisson, rate: 40, count: 300, input: {distribution: fixed, tokens: "
      "INPUT}}\n";
  const std::string prefix = "plugin scheduler/hostile_scheduler 0.0.1 (" +
                             fixture_lib("hostile_scheduler", "scheduler_hostile_scheduler") + "): ";
  const std::pair<const char*, const char*> cases[] = {
      {"unknown", "schedule decided what the engine cannot run (replica "},
      {"beyond_kv", "admits beyond the KV capacity: "},
      {"route", "route returned replica 5 for request 0; expected 0 to 1"},
  };
  for (const auto& [fault, what] : cases) {
    // beyond_kv: prompts of 100K tokens, five of which outgrow a replica's ~430K-token KV (Llama-3.1-8B
    // on one H100) within the sequence limit of 8 and no token limit
    const std::string input = std::string(fault) == "beyond_kv" ? "100K" : "2K";
    spit(dir / (std::string(fault) + ".yaml"),
         replace_all(replace_all(body, "FAULT", fault), "INPUT", input));
    const Ran r = run_split("serve", dir / (std::string(fault) + ".yaml"), "-q --set report.top=1",
                            fixture_dir("hostile_scheduler"));
    INFO(fault << "\nstderr: " << r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find(prefix) != std::string::npos);
    CHECK(r.err.find(what) != std::string::npos);
    CHECK(r.out.find("requests simulated") == std::string::npos);
  }
  spit(dir / "none.yaml", replace_all(replace_all(body, "FAULT", "none"), "INPUT", "2K"));
  const Ran ok =
      run_split("serve", dir / "none.yaml", "-q --set report.top=1", fixture_dir("hostile_scheduler"));
  INFO(ok.err);
  CHECK(ok.status == 0);
  CHECK(ok.out.find("scheduler plugin hostile_scheduler") != std::string::npos);
}

// A misspelled per-plugin machine block is an error in `run` as in `validate`: exit 2 at the
// block's line:col with the nearest name.
TEST_CASE("host checks: a machine block for no installed plugin is an error with the nearest name") {
  const TempDir dir;
  const std::string src = TESSERA_SOURCE_DIR;
  std::string machine;
  {
    FILE* f = std::fopen((src + "/machines/cube-sip-sram.yaml").c_str(), "r");
    REQUIRE(f);
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) machine.append(buf, n);
    std::fclose(f);
  }
  const std::size_t at = machine.find("  sram_tier:");
  REQUIRE(at != std::string::npos);
  machine.replace(at, 12, "  sram_tire:");
  const int line =
      1 + static_cast<int>(std::count(machine.begin(), machine.begin() + static_cast<long>(at), '\n'));
  spit(dir / "m.yaml", machine);
  spit(dir / "s.yaml", "schema_version: 1\nkind: scenario\nname: blocks\nmodel: " + src +
                           "/models/llama3.1-8b.yaml\nmachine: m.yaml\nworkload: {mode: decode, context: 4K, "
                           "batch: 8}\nplugins: {latency: sram_tier}\n");
  const std::string expect =
      dir / "m.yaml:" + std::to_string(line) +
      ":3: error: machine.plugins.sram_tire: no plugin named 'sram_tire' (did you mean "
      "'sram_tier'?)";
  for (const std::string command : {"validate", "run"}) {
    const Ran r = run_split(command, dir / "s.yaml", "", fixture_dir("lying"));
    INFO("tessera " << command << "\nstderr: " << r.err);
    CHECK(r.status == 2);
    CHECK(r.err.find(expect) != std::string::npos);
  }
}

// A library on the plugin path with a shipped plugin's id (the fixture is calibrated itself, built
// again into another folder): refused - exit 2 naming both files and the flag - unless
// --plugin-override names it; then it runs, the saved result records the file it replaced, and
// the shipped plugin's error band is not printed for it.
TEST_CASE("host checks: a library with a shipped plugin's id is refused unless --plugin-override names it") {
  const TempDir dir;
  const std::string scenario =
      std::string(TESSERA_SOURCE_DIR) + "/scenarios/llama3.1-70b-decode-4k-h100.yaml";
  const std::string shadow = fixture_lib("shadow", "latency_calibrated");
  const std::string refused =
      "error: refused plugin latency/calibrated from " + shadow + ": a shipped plugin has that id (";
  for (const std::string command : {"validate", "run", "explain"}) {
    const Ran r =
        run_split(command, scenario, command == "explain" ? "--config tp=8 -q" : "-q", fixture_dir("shadow"));
    INFO("tessera " << command << "\nstderr: " << r.err);
    CHECK(r.status == 2);
    CHECK(r.err.find(scenario + ":11:12: " + refused) != std::string::npos);
    CHECK(r.err.find(
              "/libtessera_latency_calibrated.so); pass --plugin-override latency/calibrated to use this "
              "library instead") != std::string::npos);
    CHECK(r.out.find("best") == std::string::npos);
  }

  const Ran shipped = run_split("run", scenario, "-q --json " + (dir / "shipped.json"), fixture_dir("good"));
  const Ran replaced =
      run_split("run", scenario, "-q --plugin-override latency/calibrated --json " + (dir / "replaced.json"),
                fixture_dir("shadow"));
  INFO(replaced.err);
  REQUIRE(shipped.status == 0);
  REQUIRE(replaced.status == 0);
  // The same code: the same best configuration and latency, without the band.
  const std::string latency = best_latency(shipped.out);
  REQUIRE(!latency.empty());
  CHECK(shipped.out.find("latency " + latency + " +") != std::string::npos);  // with its band
  CHECK(best_latency(replaced.out) == latency);
  CHECK(replaced.out.find("latency " + latency + ", throughput") != std::string::npos);  // without
  CHECK(replaced.out.find("band       uncalibrated: latency/calibrated is a replacement loaded from") !=
        std::string::npos);
  CHECK(replaced.out.find("% (H100/H200") == std::string::npos);
  const auto j = nlohmann::json::parse(tessera::test::slurp(dir / "replaced.json"));
  CHECK(j["band"]["status"] == "uncalibrated");
  bool found = false;
  for (const auto& p : j["provenance"]["plugins"]) {
    if (p["id"] != "latency/calibrated") continue;
    found = true;
    CHECK(p["path"] == shadow);
    const std::string replaces = p["replaces"].get<std::string>();
    CHECK(replaces != shadow);
    CHECK(replaces.find("/tessera/plugins/libtessera_latency_calibrated.so") != std::string::npos);
  }
  CHECK(found);
  const auto s = nlohmann::json::parse(tessera::test::slurp(dir / "shipped.json"));
  CHECK(s["band"]["status"] == "band");
  for (const auto& p : s["provenance"]["plugins"]) CHECK_FALSE(p.contains("replaces"));
}

// A link elsewhere to a shipped library is that library, not a replacement: nothing refused.
TEST_CASE("host checks: a link on the plugin path to a shipped library is the shipped plugin") {
  const TempDir dir;
  const std::string library =
      std::string(TESSERA_BINARY_DIR) + "/lib/tessera/plugins/libtessera_latency_calibrated.so";
  const std::string folder = dir / "links";
  std::filesystem::create_directories(folder);
  std::filesystem::create_symlink(library, folder + "/libtessera_latency_calibrated.so");
  const Ran r = run_split(
      "run", std::string(TESSERA_SOURCE_DIR) + "/scenarios/llama3.1-70b-decode-4k-h100.yaml", "-q", folder);
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.err.find("refused") == std::string::npos);
  const Ran shipped =
      run_split("run", std::string(TESSERA_SOURCE_DIR) + "/scenarios/llama3.1-70b-decode-4k-h100.yaml", "-q",
                fixture_dir("good"));
  REQUIRE(!best_latency(shipped.out).empty());
  CHECK(r.out == shipped.out);
}
