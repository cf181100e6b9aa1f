// A scenario's own sections are read by the field table (scenario/fields/mapping_reader.hpp):
// every row with a slot is reached by the walk (a value of the wrong shape at its path is an
// error naming that path), lists are read by their rows (integers may not repeat, a choice
// written twice counts once, case where the row says so), and a row's rules hold wherever it is
// written (a count whose range starts at 0 takes 0; a required key under an optional mapping).
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <string>
#include <vector>

#include "scenario/fields/field_table.hpp"
#include "scenario/scenario_loader.hpp"
#include "tessera/error.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_scenario_walk {

using namespace tessera;

namespace {

std::string fixture(const std::string& name) { return std::string(TESSERA_TEST_DIR) + "/fixtures/" + name; }

LoadOptions options(std::vector<std::string> set) {
  LoadOptions o;
  o.data_root = fixture("data");
  o.set = std::move(set);
  return o;
}

std::vector<std::string> errors_of(const std::string& file, std::vector<std::string> set) {
  std::vector<std::string> out;
  try {
    load_scenario(fixture(file), options(std::move(set)));
  } catch (const InputErrors& e) {
    for (const auto& d : e.diagnostics()) out.push_back(d.message);
  }
  return out;
}

bool has_slot(const schema::FieldRow& r) {
  return r.slot.real || r.slot.integer || r.slot.boolean || r.slot.text || r.slot.store;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// The rows a serve scenario reads (the others are decode's).
bool serve_row(std::string_view path) {
  return path.rfind("serving.", 0) == 0 || path.rfind("sweep.serving.", 0) == 0 || path == "workload.input" ||
         path == "workload.output";
}

}  // namespace

TEST_CASE("scenario walk - every row with a slot is read where it is written", "[scenario][fields]") {
  int rows = 0;
  for (const schema::FieldRow& r : schema::scenario_field_rows()) {
    if (!has_slot(r)) continue;
    const std::string path(r.path);
    if (path.rfind("workload.", 0) != 0 && path.rfind("sweep.", 0) != 0 && path.rfind("serving.", 0) != 0 &&
        path.rfind("report.", 0) != 0 && path != "scope")
      continue;
    ++rows;
    INFO(path);
    // A mapping where a value (or a list's item) is expected: refused by the row, at its path.
    const auto e = errors_of(serve_row(path) ? "serve.yaml" : "inline.yaml", {path + "={bad: 1}"});
    bool named = false;
    for (const auto& m : e) named |= starts_with(m, path + ":");
    CHECK(named);
  }
  // The table's slot rows of these sections: the workload's six, sweep's ten, serving's and report's.
  CHECK(rows >= 50);
}

TEST_CASE("scenario walk - lists are read by their rows", "[scenario][fields]") {
  const Scenario s = load_scenario(
      fixture("inline.yaml"),
      options({"sweep.parallelism.kv_shard_mode=[split, split]",
               "sweep.parallelism.ffn_shard_scope=[tp+cp, TP]", "sweep.parallelism.cp_ring_variant=tree",
               "report.scopes=[attention, full, attention]"}));
  CHECK(s.sweep.kv_shard_mode == std::vector<KvShardMode>{KvShardMode::split});
  CHECK(s.sweep.ffn_shard_scope == std::vector<FfnShardScope>{FfnShardScope::tp_cp, FfnShardScope::tp});
  CHECK(s.sweep.cp_ring_variant == std::vector<CpRingVariant>{CpRingVariant::tree});
  CHECK(s.report.scopes == std::vector<Scope>{Scope::attention, Scope::full});

  auto e = errors_of("inline.yaml", {"sweep.parallelism.ep=[]"});
  REQUIRE(e.size() == 1);
  CHECK(starts_with(e[0],
                    "sweep.parallelism.ep: expected a list of positive integers (e.g. [1, 2, 4, 8]), "
                    "found an empty list"));
  e = errors_of("inline.yaml", {"sweep.parallelism.kv_shard_mode=[split, spilt]"});
  REQUIRE(e.size() == 1);
  CHECK(starts_with(e[0], "sweep.parallelism.kv_shard_mode: expected split or replicate, found \"spilt\""));
  CHECK(e[0].find("did you mean 'split'") != std::string::npos);
  e = errors_of("serve.yaml", {"sweep.serving.batch=[4, 8, 4]"});
  REQUIRE(e.size() == 1);
  CHECK(starts_with(e[0], "sweep.serving.batch: the value 4 is listed twice"));
}

TEST_CASE("scenario walk - a row's rules hold wherever it is written", "[scenario][fields]") {
  // serving.requests.prefix.tokens counts from 0, as its row says (its default is 0).
  const Scenario s = load_scenario(fixture("serve.yaml"),
                                   options({"serving.requests={rate: 2, prefix: {groups: 0, tokens: 0}}"}));
  CHECK(s.serving.requests.given);
  CHECK(s.serving.requests.stream.prefix.tokens == 0);
  CHECK(s.serving.requests.stream.arrival.rate_per_s == 2);

  // A transfer link without its bandwidth: required by its row, said at the transfer mapping.
  auto e = errors_of("serve.yaml", {"serving.disaggregated={transfer: {latency: 8 us}}"});
  REQUIRE(e.size() == 1);
  CHECK(starts_with(e[0], "serving.disaggregated.transfer: missing required key 'bandwidth'"));

  // A key the chosen kind does not read is refused at the key, once, and not read.
  e = errors_of("serve.yaml", {"serving.requests={arrival: concurrency, concurrency: 4, cv: high}"});
  REQUIRE(e.size() == 1);
  CHECK(e[0] == "serving.requests.cv: only with arrival: gamma (arrival is concurrency) (given with --set)");
  e = errors_of("serve.yaml", {"serving.requests={rate: 1, input: {tokens: 5, max: 0}}"});
  REQUIRE(e.size() == 1);
  CHECK(e[0] ==
        "serving.requests.input.max: only with distribution: uniform or lognormal (distribution is fixed) "
        "(given with --set)");
  e = errors_of("serve.yaml", {"serving.requests={arrival: trace, trace: t.csv, input: {tokens: 5}}"});
  REQUIRE(e.size() == 1);
  CHECK(starts_with(e[0], "serving.requests.input: a trace gives each request's lengths"));
  // A bad bound is said once: min and max are compared only when both were read.
  e = errors_of("serve.yaml",
                {"serving.requests={rate: 1, input: {distribution: uniform, min: 5, max: abc}}"});
  REQUIRE(e.size() == 1);
  CHECK(starts_with(e[0], "serving.requests.input.max: expected a token count"));
  e = errors_of("serve.yaml", {"serving.requests={rate: 1, input: {distribution: uniform, min: 5, max: 4}}"});
  REQUIRE(e.size() == 1);
  CHECK(starts_with(e[0], "serving.requests.input.max: expected at least min (5), found 4"));
}

}  // namespace test_scenario_walk
