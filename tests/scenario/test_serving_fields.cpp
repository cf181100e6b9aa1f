// A serve scenario's inputs (docs/scenario-format.md "Serving"): workload input/output,
// sweep.serving, serving.slo / max_pes and plugins.serving land in the typed structs; the
// documented defaults when left out; the study size counts the serving points.
#include <catch2/catch.hpp>
#include <iterator>
#include <string>
#include "tessera_build_paths.hpp"

#include "eval/work_size.hpp"
#include "host/plugin_defaults.hpp"
#include "scenario/fields/field_table.hpp"
#include "scenario/scenario_loader.hpp"
#include "scenario/sweeps/sweep_size.hpp"
#include "tessera/error.hpp"

using namespace tessera;

namespace {
std::string fixture(const std::string& name) { return std::string(TESSERA_TEST_DIR) + "/fixtures/" + name; }
LoadOptions opts() {
  LoadOptions o;
  o.data_root = fixture("data");
  return o;
}
// "[1, 2, 4]" from a list of integers, as the field table writes a default.
template <typename Range>
std::string list_text(const Range& r) {
  std::string s = "[";
  for (const auto v : r) s += (s.size() > 1 ? ", " : "") + std::to_string(v);
  return s + "]";
}
}  // namespace

TEST_CASE("serve scenario - every input lands in its struct", "[scenario][serving]") {
  const Scenario s = load_scenario(fixture("serve.yaml"), opts());
  CHECK(s.workload.mode == Mode::serve);
  CHECK(s.workload.input == 4096);
  CHECK(s.workload.output == 1024);
  // The step fields of a serve workload: context = input, one sequence, no chunk.
  CHECK(s.workload.context == 4096);
  CHECK(s.workload.batch == 1);
  CHECK(s.workload.chunk == 0);
  CHECK(s.mode_where.line == 6);
  CHECK(s.mode_where.column == 18);

  CHECK(s.sweep.serving_batch == std::vector<std::int64_t>{1, 2, 4, 512});
  CHECK(s.sweep.serving_token_budget == std::vector<std::int64_t>{2048, 8192, 0});
  CHECK(s.sweep.tp == std::vector<std::int32_t>{1, 2});

  CHECK(s.serving.slo.ttft_s == 1.0);
  CHECK(s.serving.slo.tpot_s == Approx(0.050));
  CHECK(s.serving.slo.e2e_s == 120.0);
  CHECK(s.serving.slo.min_tokens_per_s_per_user == 20.0);
  CHECK(s.serving.slo.any());
  CHECK(s.serving.max_pes == 64);
  CHECK(s.serving.where.line == 13);

  CHECK(s.plugins.serving.name == "static");
  REQUIRE(s.plugins.serving.params.size() == 1);
  CHECK(s.plugins.serving.params[0].key == "mixing");
  CHECK(s.plugins.serving.params[0].text == "alternating");
  REQUIRE(s.plugins.objectives.size() == 1);
  CHECK(s.plugins.objectives[0].name == "latency");
}

TEST_CASE("serve scenario - the documented defaults", "[scenario][serving]") {
  const Scenario s = load_scenario(fixture("serve-defaults.yaml"), opts());
  CHECK(s.workload.input == 128 * 1024);
  CHECK(s.workload.output == 1);
  CHECK(s.sweep.serving_batch == std::vector<std::int64_t>{1, 2, 4, 8, 16, 32, 64, 128, 256});
  CHECK(s.sweep.serving_token_budget == std::vector<std::int64_t>{8192});
  CHECK_FALSE(s.serving.slo.any());
  CHECK(s.serving.slo.ttft_s == kNoSlo);
  CHECK(s.serving.max_pes == 0);
  CHECK(s.plugins.serving.name == plugin_defaults::kServing);
  REQUIRE(s.plugins.objectives.size() == 2);
  CHECK(s.plugins.objectives[0].name == "tokens_per_s_per_pe");
  CHECK(s.plugins.objectives[1].name == "tokens_per_s_per_user");
}

TEST_CASE("decode scenario - no serving points and no serving plugin", "[scenario][serving]") {
  const Scenario s = load_scenario(fixture("by-path.yaml"), opts());
  CHECK(s.workload.mode == Mode::prefill);
  CHECK(s.workload.input == 0);
  CHECK(s.workload.output == 0);
  CHECK(s.workload.chunk == 8192);  // the whole prompt, as before
  CHECK(s.sweep.serving_batch.empty());
  CHECK(s.sweep.serving_token_budget.empty());
  CHECK(s.plugins.serving.name.empty());
  CHECK(sweep_serving_points(s.sweep) == 1);
}

TEST_CASE("field table - the serving defaults' texts are the lists the loader fills", "[scenario][schema]") {
  CHECK(list_text(kDefaultServingBatch) == kDefaultServingBatchText);
  CHECK(list_text(kDefaultServingTokenBudget) == kDefaultServingTokenBudgetText);
  CHECK(std::string(schema::find_field("sweep.serving.batch")->spec.default_value) ==
        kDefaultServingBatchText);
  CHECK(std::string(schema::find_field("sweep.serving.token_budget")->spec.default_value) ==
        kDefaultServingTokenBudgetText);
  CHECK(std::string(schema::find_field("plugins.serving")->spec.default_value) == plugin_defaults::kServing);
  std::string objectives = "[";
  for (const char* name : plugin_defaults::kServingObjectives)
    objectives += std::string(objectives.size() > 1 ? ", " : "") + name;
  CHECK(objectives + "]" == plugin_defaults::kServingObjectivesText);
  // The mode's choices in Mode's order (the parser maps the i-th to the i-th value).
  const schema::FieldRow* mode = schema::find_field("workload.mode");
  REQUIRE(mode->spec.choice_count == 3);
  CHECK(std::string(mode->spec.choices[static_cast<int>(Mode::decode)].value) == "decode");
  CHECK(std::string(mode->spec.choices[static_cast<int>(Mode::prefill)].value) == "prefill");
  CHECK(std::string(mode->spec.choices[static_cast<int>(Mode::serve)].value) == "serve");
}

TEST_CASE("study size - serving points multiply the configurations", "[scenario][serving]") {
  const Scenario s = load_scenario(fixture("serve.yaml"), opts());
  CHECK(sweep_serving_points(s.sweep) == 4 * 3);
  const WorkSize w = size_work(s.sweep, 1, 1, std::nullopt);
  CHECK(w.serving_points == 12);
  CHECK(w.evaluations == w.grid_points * 12);
  CHECK(describe_work(w).find("12 serving points per configuration") != std::string::npos);
}

namespace {
// The messages of loading fixture `name` with --set values (" (given with --set)" stripped).
std::vector<std::string> errors_of(const std::string& name, std::vector<std::string> set) {
  LoadOptions o = opts();
  o.set = std::move(set);
  std::vector<std::string> out;
  try {
    load_scenario(fixture(name), o);
  } catch (const InputErrors& e) {
    for (const auto& d : e.diagnostics()) {
      std::string m = d.message;
      const std::string note = " (given with --set)";
      if (m.size() > note.size() && m.compare(m.size() - note.size(), note.size(), note) == 0)
        m.resize(m.size() - note.size());
      out.push_back(m);
    }
  }
  return out;
}
}  // namespace

TEST_CASE("serve inputs - bad values refused with their path", "[scenario][serving]") {
  CHECK(errors_of("serve.yaml", {}).empty());
  auto e = errors_of("serve.yaml", {"sweep.serving.batch=[1, 0, 4, 1]"});
  REQUIRE(e.size() == 1);
  CHECK(e[0] == "sweep.serving.batch: expected a positive token count, found 0");
  e = errors_of("serve.yaml", {"sweep.serving.batch=[4, 1, 4, 1]"});
  REQUIRE(e.size() == 2);
  CHECK(e[0] == "sweep.serving.batch: the value 4 is listed twice");
  CHECK(e[1] == "sweep.serving.batch: the value 1 is listed twice");
  e = errors_of("serve.yaml", {"sweep.serving.token_budget=[]"});
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("sweep.serving.token_budget: expected a list of token counts") == 0);
  e = errors_of("serve.yaml", {"serving.slo.tokens_per_s_per_user=0"});
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("serving.slo.tokens_per_s_per_user: expected a number > 0") == 0);
  e = errors_of("serve.yaml", {"serving.max_pes=0"});
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("serving.max_pes: expected a positive integer") == 0);
  e = errors_of("serve.yaml", {"serving.slo.tpot=-5 ms"});
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("serving.slo.tpot:") == 0);
  e = errors_of("serve.yaml", {"serving.slo.ttfb=1 s"});
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("no key 'serving.slo.ttfb' in the scenario schema (did you mean 'serving.slo.ttft'?)") !=
        std::string::npos);
  e = errors_of("serve.yaml", {"workload.output=0"});
  REQUIRE(e.size() == 1);
  CHECK(e[0] == "workload.output: expected a positive token count, found 0");
}

TEST_CASE("serve inputs - a decode scenario switched to serve by --set", "[scenario][serving]") {
  // by-path.yaml is prefill at context 8K: as serve its context is refused and input/output missing.
  const auto e = errors_of("by-path.yaml", {"workload.mode=serve"});
  REQUIRE(e.size() == 3);
  CHECK(e[0] == "workload.context: not in workload.mode: serve; a request's prompt length is workload.input");
  CHECK(e[1] == "workload: missing required key 'input' (a token count, e.g. 128K)");
  CHECK(e[2] == "workload: missing required key 'output' (a token count, e.g. 128K)");
  // And a serve scenario switched to decode: input/output and the serve sections refused.
  const auto d = errors_of("serve-defaults.yaml", {"workload.mode=decode", "workload.context=4K"});
  REQUIRE(d.size() == 2);
  CHECK(d[0].find("workload.input: only in workload.mode: serve") == 0);
  CHECK(d[1].find("workload.output: only in workload.mode: serve") == 0);
}
