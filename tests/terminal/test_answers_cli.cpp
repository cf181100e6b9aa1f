// Answers without padding or contradiction, end to end on shipped scenarios:
// - the printed best line is `explain --config` syntax: the configuration after `best       `
//   in the output of `run` and `serve`, pasted as it is into `explain --config`, exits 0 and
//   explains that configuration (its canonical form, the line `explain` prints);
// - rows that differ only in dp are one row of the text tables naming the ranges, and the JSON
//   lists name their groups (`dp_members`, `dp_member_of`);
// - the best is a frontier point.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "shell_run.hpp"
#include "tessera_build_paths.hpp"

namespace test_answers_cli {

using tessera::testing::Ran;

Ran answers_cli(const std::string& args) {
  return tessera::testing::shell("TESSERA_PLUGIN_PATH= " + std::string(TESSERA_BINARY_DIR) + "/bin/tessera " +
                                 args + " -q 2>&1");
}

std::string answers_scenario(const char* name) {
  return std::string(TESSERA_SOURCE_DIR) + "/scenarios/" + name;
}

// The rest of the first line that starts with `label` (empty when none does), with the lines
// it was broken into to fit a width (after a comma, under the label) joined back.
std::string answers_line_after(const std::string& text, const std::string& label) {
  std::size_t start = text.rfind(label, 0) == 0 ? 0 : text.find("\n" + label);
  if (start == std::string::npos) return "";
  if (text[start] == '\n') ++start;
  start += label.size();
  std::string out;
  for (;;) {
    const std::size_t end = text.find('\n', start);
    out += text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (end == std::string::npos || out.empty() || out.back() != ',') return out;
    start = end + 1 + label.size();  // the continuation, under the label
  }
}

// `explain SCENARIO --config LINE` as a shell word (the line holds no quote).
Ran answers_explain(const std::string& scenario_path, const std::string& line) {
  return answers_cli("explain " + scenario_path + " --config '" + line + "'");
}

}  // namespace test_answers_cli

using namespace test_answers_cli;

TEST_CASE("run's printed best line pastes into explain --config") {
  const std::string path = answers_scenario("llama3.1-70b-decode-4k-h100.yaml");
  const Ran run = answers_cli("run " + path + " --width 0");
  REQUIRE(run.rc == 0);
  const std::string best = answers_line_after(run.out, "best       ");
  CHECK(best ==
        "cp=1,tp=8,pp=1,dp=1,ep=1,kv_shard_mode=split,ffn_shard_scope=TP,tp_placement=gpu,"
        "cp_placement=node,cp_ring_variant=kv");
  const Ran e = answers_explain(path, best);
  INFO(e.out);
  CHECK(e.rc == 0);
  CHECK(e.out.find("unknown knob") == std::string::npos);
  CHECK(e.out.find(best) != std::string::npos);  // explain names the same configuration
}

TEST_CASE("explain names the terms of the cross-node all-reduce that decides the 70B case") {
  // The 70B two-node case (docs/physics.md §5 "Across nodes"): CP2 x TP8 across two DGX H100 nodes
  // loses to TP8 by its 16-rank all-reduce, whose time explain breaks into NCCL's tree terms with
  // the measured InfiniBand hop.
  const std::string path = answers_scenario("llama3.1-70b-decode-4k-h100.yaml");
  const Ran e =
      answers_explain(path, "cp=2,tp=8,ffn_shard_scope=TP+CP,cp_placement=node,cp_ring_variant=qoml");
  INFO(e.out);
  REQUIRE(e.rc == 0);
  CHECK(e.out.find("ffn.reduce: all-reduce of 16.38 kB on 16 ranks (cluster): *nccl_tree/LL 32.77 us") !=
        std::string::npos);
  CHECK(e.out.find("*nccl_tree/LL = 6.8 us base + 14 x 600 ns (node hop) + 2 x 8.6 us (cluster hop)") !=
        std::string::npos);
  const Ran j = answers_cli("explain " + path +
                            " --json - --config 'cp=2,tp=8,ffn_shard_scope=TP+CP,cp_placement=node,"
                            "cp_ring_variant=qoml'");
  REQUIRE(j.rc == 0);
  CHECK(j.out.find("\"model\": \"= 6.8 us base + 14 x 600 ns (node hop) + 2 x 8.6 us (cluster hop)") !=
        std::string::npos);
}

TEST_CASE("serve's printed best line pastes into explain --config on its machine") {
  // explain studies one step (a serve scenario is refused at workload.mode): the decode
  // scenario of the same model and machine explains the configuration serve chose.
  const Ran serve =
      answers_cli("serve " + answers_scenario("llama3.1-70b-serve-4k1k-h100.yaml") + " --width 0");
  REQUIRE(serve.rc == 0);
  const std::string best = answers_line_after(serve.out, "best       ");
  CHECK(best ==
        "cp=1,tp=8,pp=1,dp=1,ep=1,kv_shard_mode=split,ffn_shard_scope=TP,tp_placement=gpu,"
        "cp_placement=node,cp_ring_variant=kv");
  const Ran e = answers_explain(answers_scenario("llama3.1-70b-decode-4k-h100.yaml"), best);
  INFO(e.out);
  CHECK(e.rc == 0);
  CHECK(e.out.find(best) != std::string::npos);
}

TEST_CASE("a best line fitted to a width breaks after a comma and joins back to the same line") {
  const std::string path = answers_scenario("llama3.1-70b-decode-4k-h100.yaml");
  const Ran run = answers_cli("run " + path + " --width 80");
  REQUIRE(run.rc == 0);
  const std::size_t at = run.out.find("best       ");
  REQUIRE(at != std::string::npos);
  // "best       cp=1,...,ffn_shard_scope=TP,\n           tp_placement=gpu,cp_placement=node,..."
  const std::size_t nl = run.out.find('\n', at);
  CHECK(nl - at <= 80);
  CHECK(run.out[nl - 1] == ',');
  const std::string joined = answers_line_after(run.out, "best       ");
  CHECK(joined ==
        "cp=1,tp=8,pp=1,dp=1,ep=1,kv_shard_mode=split,ffn_shard_scope=TP,tp_placement=gpu,"
        "cp_placement=node,cp_ring_variant=kv");
  CHECK(answers_explain(path, joined).rc == 0);
}

TEST_CASE("run's top table shows configurations that differ only in dp as one row") {
  const std::string path = answers_scenario("llama3.1-70b-decode-4k-h100.yaml");
  const Ran run = answers_cli("run " + path + " --width 0");
  REQUIRE(run.rc == 0);
  // Top 10: cp1 tp8 at pp 1, 2, 4 and cp2 tp8 at pp 1, 2, each at dp 1 and 2.
  CHECK(run.out.find("Top 10 by latency in 5 rows (configurations that differ only in dp share one)") !=
        std::string::npos);
  CHECK(run.out.find("  1   1   8   1  1\u2013"
                     "2   1  split  TP     gpu  node  kv     12.88 ms   8\u2013"
                     "16        0.0245  17.8 GB") != std::string::npos);
  const Ran json = answers_cli("run " + path + " --json -");
  REQUIRE(json.rc == 0);
  const nlohmann::json j = nlohmann::json::parse(json.out);
  const nlohmann::json& top = j.at("top");
  REQUIRE(top.size() == 10);
  REQUIRE(top[0].contains("dp_members"));
  CHECK(top[0]["dp_members"] ==
        nlohmann::json::parse(R"([{"dp":1,"pes":8,"index":0},{"dp":2,"pes":16,"index":1}])"));
  CHECK(top[1]["dp_member_of"] == 0);
  CHECK(top[1]["dp"] == 2);  // every configuration stays in the list
  CHECK_FALSE(top[2].contains("dp_member_of"));
}

TEST_CASE("serve's tables show configurations that differ only in dp as one row") {
  const std::string path = answers_scenario("llama3.1-70b-serve-4k1k-h100-disagg.yaml");
  const Ran serve = answers_cli("serve " + path + " --width 0");
  REQUIRE(serve.rc == 0);
  INFO(serve.out);
  // tp8 at batch 128, token budget 8192: dp 1, 2, 4, 8 on 8 to 64 GPUs, one row.
  CHECK(serve.out.find("tp8 pp1 dp1\u2013"
                       "8 ep1") != std::string::npos);
  CHECK(serve.out.find("8\u2013"
                       "64") != std::string::npos);
  CHECK(serve.out.find("tp8 pp1 dp2 ep1") == std::string::npos);
  const Ran json = answers_cli("serve " + path + " --json -");
  REQUIRE(json.rc == 0);
  const nlohmann::json j = nlohmann::json::parse(json.out);
  const nlohmann::json& f = j.at("frontier");
  REQUIRE(f.size() >= 4);
  REQUIRE(f[0].contains("dp_members"));
  CHECK(f[0]["dp_members"].size() == 4);
  CHECK(f[0]["dp_members"][3]["pes"] == 64);
  for (std::size_t i = 1; i < 4; ++i) CHECK(f[i]["dp_member_of"] == 0);
}

TEST_CASE("the best of run and serve is a frontier point") {
  struct Study {
    const char* command;
    const char* scenario;
    const char* frontier;
  };
  for (const Study& st : {Study{"run", "llama3.1-70b-decode-4k-h100.yaml", "pareto"},
                          Study{"serve", "llama3.1-70b-serve-4k1k-h100.yaml", "frontier"},
                          Study{"serve", "llama3.1-70b-serve-4k1k-h100-disagg.yaml", "frontier"}}) {
    INFO(st.command << ' ' << st.scenario);
    const Ran r = answers_cli(std::string(st.command) + ' ' + answers_scenario(st.scenario) + " --json -");
    REQUIRE(r.rc == 0);
    const nlohmann::json j = nlohmann::json::parse(r.out);
    const nlohmann::json& scope = j.contains("disaggregated") ? j["disaggregated"] : j;
    bool found = false;
    // The same point: its knobs, PEs and objective values (the best's entry also carries its stages).
    const nlohmann::json& best = scope.at("best");
    for (const nlohmann::json& p : scope.at(st.frontier)) {
      bool same = true;
      for (const char* key :
           {"cp", "tp", "pp", "dp", "ep", "kv_shard_mode", "ffn_shard_scope", "pes", "objectives", "batch",
            "tokens_per_s_per_pe", "tokens_per_s_per_user", "prefill", "decode"})
        if (best.contains(key)) same = same && p.contains(key) && p[key] == best[key];
      found = found || same;
    }
    CHECK(found);
  }
}
