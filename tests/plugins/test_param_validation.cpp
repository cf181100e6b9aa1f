// Parameter validation against a plugin's schema: defaults, units, ranges, choices, unknown
// keys, required parameters, and the schema checks the loader applies to descriptors.
#include <catch2/catch.hpp>

#include "fixture_paths.hpp"
#include "host/param_check.hpp"
#include "host/plugin_registry.hpp"

using namespace tessera;
using tessera::test::fixture_dir;

namespace {

RawParam raw(std::string key, std::string text, int line = 5, int col = 7) {
  RawParam r;
  r.key = std::move(key);
  r.text = std::move(text);
  r.where = SourceLocation{"scenario.yaml", line, col};
  return r;
}

RawParam raw_list(std::string key, std::vector<std::string> items) {
  RawParam r;
  r.key = std::move(key);
  for (std::size_t i = 0; i < items.size(); ++i) r.text += (i ? "," : "") + items[i];
  r.items = std::move(items);
  r.is_list = true;
  r.where = SourceLocation{"scenario.yaml", 6, 3};
  return r;
}

struct Fixture {
  PluginRegistry reg{{fixture_dir("good")}, false};
  const PluginDescriptor* latency = nullptr;
  Fixture() {
    reg.discover();
    latency = reg.find(PluginKind::latency, "fixture")->descriptor;
  }
  ParamSet validate(const std::vector<RawParam>& r, std::vector<Diagnostic>& d) const {
    return validate_params(latency->params, latency->param_count, r, "plugin latency/fixture",
                           SourceLocation{"scenario.yaml", 3, 14}, d);
  }
  std::string one_error(const std::vector<RawParam>& r) const {
    std::vector<Diagnostic> d;
    validate(r, d);
    REQUIRE(d.size() == 1);
    return d[0].message;
  }
  const ParamSpec& spec(std::string_view name) const {
    for (std::uint32_t i = 0; i < latency->param_count; ++i)
      if (name == latency->params[i].name) return latency->params[i];
    FAIL("no parameter " << name);
    return latency->params[0];
  }
};

}  // namespace

TEST_CASE("defaults are filled and units converted to SI") {
  Fixture f;
  std::vector<Diagnostic> d;
  const ParamSet p = f.validate({raw("alpha", "3 us"), raw("samples", "12")}, d);
  REQUIRE(d.empty());
  CHECK(p.real("alpha") == Approx(3e-6));
  CHECK(p.integer("samples") == 12);
  CHECK(p.real("efficiency") == 0.5);
  CHECK(p.text("mode") == "fast");
  CHECK(p.boolean("slow") == false);
  CHECK(p.text("label") == "plain");
  CHECK(p.list("weights") == std::vector<double>{1, 2.5});
  CHECK(p.values().size() == 7);

  const ParamSet q = f.validate(
      {raw("alpha", "1.5 ms"), raw("mode", "careful"), raw("slow", "true"), raw("label", "hello world"),
       raw_list("weights", {"0", "10", "3.5"}), raw("efficiency", "1")},
      d);
  REQUIRE(d.empty());
  CHECK(q.real("alpha") == Approx(1.5e-3));
  CHECK(q.text("mode") == "careful");
  CHECK(q.boolean("slow"));
  CHECK(q.text("label") == "hello world");
  CHECK(q.list("weights") == std::vector<double>{0, 10, 3.5});
  CHECK(q.real("efficiency") == 1.0);  // ranges are inclusive
}

TEST_CASE("out of range values say what was expected and what was found") {
  Fixture f;
  CHECK(f.one_error({raw("samples", "-5")}) ==
        "plugin latency/fixture: parameter 'samples': expected an integer ≥ 1, found '-5'");
  CHECK(f.one_error({raw("samples", "2.5")}) ==
        "plugin latency/fixture: parameter 'samples': expected an integer ≥ 1, found '2.5'");
  CHECK(f.one_error({raw("efficiency", "1.5")}) ==
        "plugin latency/fixture: parameter 'efficiency': expected a number in [0.01, 1], found '1.5'");
  CHECK(f.one_error({raw("slow", "maybe")}) ==
        "plugin latency/fixture: parameter 'slow': expected true or false, found 'maybe'");
  CHECK(f.one_error({raw_list("weights", {"1", "20"})}) ==
        "plugin latency/fixture: parameter 'weights': expected a list of numbers, each in [0, 10], found [1, "
        "20]");
  CHECK(f.one_error({raw_list("samples", {"1", "2"})}) ==
        "plugin latency/fixture: parameter 'samples': expected an integer ≥ 1, found [1, 2]");
  CHECK(f.one_error({raw("alpha", "-1 us")}) ==
        "plugin latency/fixture: parameter 'alpha': expected a time ≥ 0 s, found '-1 us'");
}

TEST_CASE("a quantity needs a unit of its dimension") {
  Fixture f;
  const std::string no_unit = f.one_error({raw("alpha", "5")});
  CHECK_THAT(no_unit, Catch::StartsWith(
                          "plugin latency/fixture: parameter 'alpha': expected a time ≥ 0 s, found '5' ("));
  const std::string wrong_dim = f.one_error({raw("alpha", "5 GB")});
  CHECK_THAT(
      wrong_dim,
      Catch::StartsWith("plugin latency/fixture: parameter 'alpha': expected a time ≥ 0 s, found '5 GB' ("));
}

TEST_CASE("an unknown key gets a suggestion and the list of parameters") {
  Fixture f;
  std::vector<Diagnostic> d;
  f.validate({raw("sampels", "3", 9, 5)}, d);
  REQUIRE(d.size() == 1);
  CHECK(d[0].message ==
        "plugin latency/fixture: unknown parameter 'sampels' (did you mean 'samples'?); parameters: alpha, "
        "efficiency, mode, slow, label, weights, samples");
  CHECK(d[0].format() ==
        "scenario.yaml:9:5: error: plugin latency/fixture: unknown parameter 'sampels' (did you mean "
        "'samples'?); "
        "parameters: alpha, efficiency, mode, slow, label, weights, samples");
}

TEST_CASE("a wrong enum choice gets the nearest choice") {
  Fixture f;
  CHECK(f.one_error({raw("mode", "fsat")}) ==
        "plugin latency/fixture: parameter 'mode': expected one of fast, careful, found 'fsat' (did you mean "
        "'fast'?)");
  CHECK(f.one_error({raw("mode", "zzzzzz")}) ==
        "plugin latency/fixture: parameter 'mode': expected one of fast, careful, found 'zzzzzz'");
}

TEST_CASE("booleans follow YAML 1.2 - yes and on and off are refused with the boolean they meant") {
  Fixture f;
  for (const char* t : {"true", "True", "TRUE"})
    CHECK(std::get<bool>(*check_param_value(f.spec("slow"), t).value));
  for (const char* t : {"false", "False", "FALSE"})
    CHECK_FALSE(std::get<bool>(*check_param_value(f.spec("slow"), t).value));
  CHECK(
      f.one_error({raw("slow", "yes")}) ==
      "plugin latency/fixture: parameter 'slow': expected true or false, found 'yes' (did you mean `true`?)");
  CHECK(
      f.one_error({raw("slow", "On")}) ==
      "plugin latency/fixture: parameter 'slow': expected true or false, found 'On' (did you mean `true`?)");
  CHECK(f.one_error({raw("slow", "off")}) ==
        "plugin latency/fixture: parameter 'slow': expected true or false, found 'off' (did you mean "
        "`false`?)");
}

TEST_CASE("enum choices named yes - on - off and null keep their names") {
  static constexpr ParamChoice choices[] = {
      {"yes", "always"}, {"on", "when asked"}, {"off", "never"}, {"null", "no value"}};
  const ParamSpec spec{"when", ParamType::enumeration, Dimension::none, "on", kNoMin, kNoMax, choices, 4,
                       "when"};
  REQUIRE(check_param_schema(&spec, 1).empty());
  for (const char* t : {"yes", "on", "off", "null"})
    CHECK(std::get<std::string>(*check_param_value(spec, t).value) == t);
  CHECK(check_param_value(spec, "true").problem == ParamProblem::not_a_choice);
}

TEST_CASE("a missing required parameter points at the plugin's name") {
  PluginRegistry reg({fixture_dir("good")}, false);
  reg.discover();
  PluginChoice choice{"fixture", {}, SourceLocation{"scenario.yaml", 20, 15}};
  try {
    reg.create_objective(choice);
    FAIL("no exception");
  } catch (const InputErrors& e) {
    REQUIRE(e.diagnostics().size() == 1);
    CHECK(e.diagnostics()[0].format() ==
          "scenario.yaml:20:15: error: plugin objective/fixture: missing required parameter 'scale' (a "
          "number ≥ 0)");
  }
  choice.params.push_back(raw("scale", "2"));
  auto objective = reg.create_objective(choice);
  REQUIRE(objective);
  StepTotals totals;
  totals.latency_s = 0.25;
  const StageList stages;
  const MemoryUsage memory;
  CHECK(objective->evaluate(EvalContext{}, Workload{}, ParallelConfig{},
                            EvaluatedStep{stages, totals, memory}) == 0.5);
  CHECK(objective->direction() == Direction::minimize);
}

TEST_CASE("every problem is collected - each at its own location") {
  Fixture f;
  std::vector<Diagnostic> d;
  f.validate({raw("samples", "0", 4, 3), raw("mode", "slow", 5, 3), raw("bogus", "1", 6, 3),
              raw("samples", "2", 7, 3)},
             d);
  REQUIRE(d.size() == 4);
  CHECK(d[0].where.line == 4);
  CHECK(d[1].where.line == 5);
  CHECK(d[2].where.line == 6);
  CHECK(d[3].message == "plugin latency/fixture: parameter 'samples' is given twice");
  CHECK(d[3].where.line == 7);
}

TEST_CASE("check_choice and validate_choice validate without creating") {
  PluginRegistry reg({fixture_dir("good")}, false);
  reg.discover();
  std::vector<Diagnostic> d;
  reg.check_choice(PluginKind::search, PluginChoice{"fixture", {raw("samples", "-5")}, {}}, d);
  reg.check_choice(PluginKind::search, PluginChoice{"fixtur", {}, SourceLocation{"s.yaml", 2, 3}}, d);
  REQUIRE(d.size() == 2);
  CHECK(d[0].message == "plugin search/fixture: parameter 'samples': expected an integer ≥ 1, found '-5'");
  CHECK(d[1].message == "unknown search plugin 'fixtur' (did you mean 'fixture'?); registered: fixture");
  const ParamSet p = reg.validate_choice(PluginKind::search, PluginChoice{"fixture", {raw("seed", "9")}, {}});
  CHECK(p.integer("seed") == 9);
  CHECK(p.integer("samples") == 100);
  CHECK_THROWS_AS(reg.validate_choice(PluginKind::search, PluginChoice{"fixture", {raw("seed", "x")}, {}}),
                  InputErrors);
}

TEST_CASE("machine parameters are validated against the latency plugin's machine schema") {
  PluginRegistry reg({fixture_dir("good"), fixture_dir("dup")}, false);
  reg.discover();
  const ParamSet p = reg.machine_params("fixture", {raw("hbm", "0.8")}, "machines/x.yaml");
  CHECK(p.real("hbm") == 0.8);
  CHECK(p.real("gemm") == 1.0);
  try {
    reg.machine_params("fixture", {raw("gemmm", "0.5", 14, 15)}, "machines/x.yaml");
    FAIL("no exception");
  } catch (const InputErrors& e) {
    REQUIRE(e.diagnostics().size() == 2);
    CHECK(e.diagnostics()[0].format() ==
          "scenario.yaml:14:15: error: machine 'efficiency' (read by latency/fixture): unknown parameter "
          "'gemmm' "
          "(did you mean 'gemm'?); parameters: gemm, hbm");
    CHECK(
        e.diagnostics()[1].format() ==
        "machines/x.yaml: error: machine 'efficiency' (read by latency/fixture): missing required parameter "
        "'hbm' (a number in [0.01, 1])");
  }
  // A latency model that reads no machine parameters ignores the block.
  CHECK(reg.machine_params("dup", {raw("anything", "1")}, "machines/x.yaml").empty());
}

TEST_CASE("schema checks catch broken descriptors") {
  const ParamChoice dup_choices[] = {{"a", "one"}, {"a", "again"}};
  const ParamSpec specs[] = {
      {"x", ParamType::integer, Dimension::none, "1", 0, 10, nullptr, 0, ""},
      {"x", ParamType::integer, Dimension::none, "1", 0, 10, nullptr, 0, ""},
      {"t", ParamType::quantity, Dimension::none, "1", kNoMin, kNoMax, nullptr, 0, ""},
      {"r", ParamType::real, Dimension::time, "1", kNoMin, kNoMax, nullptr, 0, ""},
      {"e", ParamType::enumeration, Dimension::none, "a", kNoMin, kNoMax, nullptr, 0, ""},
      {"c", ParamType::enumeration, Dimension::none, "a", kNoMin, kNoMax, dup_choices, 2, ""},
      {"m", ParamType::real, Dimension::none, "1", 5, 1, nullptr, 0, ""},
      {"name", ParamType::string, Dimension::none, nullptr, kNoMin, kNoMax, nullptr, 0, ""},
      {"i", ParamType::integer, Dimension::none, "one", kNoMin, kNoMax, nullptr, 0, ""},
      {"q", ParamType::quantity, Dimension::time, "5 GB", kNoMin, kNoMax, nullptr, 0, ""},
      {"k", ParamType::enumeration, Dimension::none, "z", kNoMin, kNoMax, dup_choices, 1, ""},
      {"up", ParamType::integer, Dimension::none, "7", kNoMin, 5, nullptr, 0, ""},
      {"bad name", ParamType::integer, Dimension::none, "7", kNoMin, 5, nullptr, 0, ""},
  };
  const auto problems = check_param_schema(specs, sizeof(specs) / sizeof(specs[0]));
  REQUIRE(problems.size() == 12);
  CHECK(problems[0] == "parameter 'x' is declared twice");
  CHECK(problems[1] == "parameter 't' is a quantity without a dimension (use real for a plain number)");
  CHECK(problems[2] == "parameter 'r' has a dimension but is of type real, not quantity");
  CHECK(problems[3] == "parameter 'e' is an enum without choices");
  CHECK(problems[4] == "parameter 'c' lists the choice 'a' twice");
  CHECK(problems[5] == "parameter 'm' has an empty range (min 5 > max 1)");
  CHECK(problems[6] == "parameter 'name' is reserved: `name` selects the plugin");
  CHECK(problems[7] == "default 'one' of parameter 'i' is not an integer");
  CHECK_THAT(problems[8], Catch::StartsWith("default '5 GB' of parameter 'q' is not a time ("));
  CHECK(problems[9] == "default 'z' of parameter 'k' is not one of its choices: a");
  CHECK(problems[10] == "default '7' of parameter 'up' is outside its range (-∞, 5]");
  CHECK(problems[11] == "parameter 'bad name' has an invalid name (use letters, digits and '_')");
  CHECK(check_param_schema(specs, 1).empty());
}

TEST_CASE("schema texts for `tessera plugins`") {
  const ParamSpec t{"alpha", ParamType::quantity, Dimension::time, "2 us", 0, kNoMax, nullptr, 0, ""};
  CHECK(param_unit(t) == std::string("s"));
  CHECK(param_range_text(t) == "[0 s, ∞)");
  CHECK(param_expectation(t) == "a time ≥ 0 s");
  const ParamSpec r{"eff", ParamType::real, Dimension::none, "0.5", 0, 1, nullptr, 0, ""};
  CHECK(param_range_text(r) == "[0, 1]");
  CHECK(param_unit(r) == std::string(""));
  const ParamSpec n{"n", ParamType::integer, Dimension::none, "1", kNoMin, kNoMax, nullptr, 0, ""};
  CHECK(param_range_text(n).empty());
  CHECK_FALSE(param_has_range(n));
  const ParamSpec bw{"bw", ParamType::quantity, Dimension::bandwidth, "1 TB/s", 0, kNoMax, nullptr, 0, ""};
  CHECK(param_expectation(bw) == "a bandwidth ≥ 0 B/s");
  REQUIRE(default_param_value(bw).has_value());
  CHECK(std::get<double>(*default_param_value(bw)) == 1e12);
}
