// report/schema_docs/result_schema: the types `tessera report` requires of a saved --json result, per kind,
// checked on hand-made documents (the real ones: test_report_command.cpp).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "report/schema_docs/result_schema.hpp"
#include "scenario/readers/json_tree.hpp"
#include "tessera/limits.hpp"

using namespace tessera;

namespace {

// Every problem check_result_fields finds in `text`, formatted ("" entries none).
std::vector<std::string> problems(const std::string& text) {
  loader::Diags d;
  const auto tree = loader::parse_json_text(text, "r.json", d, "");
  REQUIRE(tree);
  check_result_fields(*tree, d);
  std::vector<std::string> out;
  for (const Diagnostic& g : d.take()) out.push_back(g.format());
  return out;
}

}  // namespace

TEST_CASE("result schema: a run result of the right types passes and so do absent and null fields") {
  CHECK(problems(R"({"scenario": "s", "points": [{"id": 0, "tp": 1, "objectives": {"latency_s": null},
                     "latency_s": null, "feasible": true}], "best": null, "breakdowns": {}})")
            .empty());
  CHECK(problems(R"({"scenario": "s"})").empty());
  CHECK(problems(R"({"scenario": "s", "unknown": [1, "x", {}]})").empty());  // not drawn: not checked
}

TEST_CASE("result schema: a wrong type is refused at its value with its key path") {
  CHECK(problems(R"({"scenario": "s",
  "best": {"id": [1], "tp": "2"}})") ==
        std::vector<std::string>{"r.json:2:18: error: best.id: expected a number or a string, found a list",
                                 "r.json:2:29: error: best.tp: expected a number, found \"2\""});
  CHECK(problems(R"({"scenario": 7})") ==
        std::vector<std::string>{"r.json:1:14: error: scenario: expected a string, found 7"});
  CHECK(problems(R"({"scenario": "s", "breakdowns": {"12": [{"name": "a", "compute_s": true}]}})") ==
        std::vector<std::string>{
            "r.json:1:68: error: breakdowns.12[0].compute_s: expected a number, found true"});
}

TEST_CASE("result schema: what the page's scripts read inside must be there") {
  CHECK(problems(R"({"scenario": "s", "points": [{"id": 0}]})") ==
        std::vector<std::string>{"r.json:1:30: error: points[0].objectives: missing; expected an object"});
  CHECK(problems(R"({"scenario": "s", "pareto": [{"objectives": null}]})") ==
        std::vector<std::string>{"r.json:1:45: error: pareto[0].objectives: expected an object, found null"});
  // compare's rank chart reads datum.rank[...] and datum.latency_s[...]
  CHECK(problems(R"({"scenario": "s", "models": ["a", "b"], "kendall": [],
  "points": [{"tp": 1, "rank": {"a": 1, "b": 2}, "latency_s": 0.5}]})") ==
        std::vector<std::string>{"r.json:2:63: error: points[0].latency_s: expected an object, found 0.5"});
}

TEST_CASE("result schema: each kind is checked as its own") {
  // serve: numbers of the frontier and the SLO
  CHECK(problems(R"({"scenario": "s", "workload": {"mode": "serve"}, "slo": {"tpot_s": "50 ms"}})") ==
        std::vector<std::string>{"r.json:1:68: error: slo.tpot_s: expected a number, found \"50 ms\""});
  // serve's capacity search: what its charts read
  CHECK(problems(R"({"scenario": "s", "workload": {"mode": "serve"}, "capacity": {"load": "rate_per_s",
  "finalists": [{"moved": false, "capacity": {"probes": [{"rate_per_s": 1.5, "met": true}]}}]}})")
            .empty());
  CHECK(
      problems(R"({"scenario": "s", "workload": {"mode": "serve"}, "capacity": {"load": "rate_per_s",
  "finalists": [{"moved": "yes", "capacity": {"probes": [{"rate_per_s": "1/s"}]}}]}})") ==
      std::vector<std::string>{
          "r.json:2:27: error: capacity.finalists[0].moved: expected true or false, found \"yes\"",
          "r.json:2:73: error: capacity.finalists[0].capacity.probes[0].rate_per_s: expected a number, found "
          "\"1/s\""});
  // explain: `objectives` is its own object of values (a run's is a list)
  CHECK(problems(R"({"scenario": "s", "stages": [], "totals": {}, "objectives": {"latency_s": 1}})").empty());
  CHECK(problems(R"({"scenario": "s", "objectives": {"latency_s": 1}})") ==
        std::vector<std::string>{"r.json:1:33: error: objectives: expected a list, found an object"});
  // validate-data: models are objects; compare: names
  CHECK(problems(R"({"models": [{"latency": "roofline", "rows": [{"measured": "1 ms"}]}]})") ==
        std::vector<std::string>{
            "r.json:1:59: error: models[0].rows[0].measured: expected a number, found \"1 ms\""});
  CHECK(problems(R"({"scenario": "s", "models": [{"latency": "a"}], "kendall": []})") ==
        std::vector<std::string>{"r.json:1:30: error: models[0]: expected a string, found an object"});
  // explore: a hardware value may be a number or a word
  CHECK(problems(R"({"scenario": "s", "axes": [{"path": "machine.pe.hbm.bandwidth"}],
  "points": [{"hardware": {"machine.pe.hbm.bandwidth": 3e12, "machine.x": "a"}, "pareto": 1}]})") ==
        std::vector<std::string>{"r.json:2:91: error: points[0].pareto: expected true or false, found 1"});
}

TEST_CASE("result schema: each other scope's document is checked as one of its kind") {
  CHECK(problems(R"({"scenario": "s", "by_scope": {"attention": {"workload": {"mode": "serve"},
  "frontier": [{"batch": {}}]}}})") ==
        std::vector<std::string>{
            "r.json:2:26: error: by_scope.attention.frontier[0].batch: expected a number, found an object"});
}

TEST_CASE("result schema: at most `diagnostics` problems are worded") {
  std::string text = R"({"scenario": "s", "points": [)";
  for (int i = 0; i < 150; ++i) text += std::string(i ? "," : "") + R"({"objectives": {}, "pes": "x"})";
  text += "]}";
  const std::vector<std::string> p = problems(text);
  REQUIRE(p.size() == limit_value("diagnostics") + 1);
  CHECK(p.back() ==
        "r.json: error: 50 more errors not shown: the number of errors exceeds the limit diagnostics (100); "
        "raise it with --limit diagnostics=N");
}
