// `overrides:` and `--set KEY=VALUE`: dotted paths from the scenario's root, applied to the
// YAML tree before typed parsing, with the same value grammar as the files.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include "scenario/scenario_loader.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_overrides {

using namespace tessera;

namespace {
std::string fixture(const std::string& name) { return std::string(TESSERA_TEST_DIR) + "/fixtures/" + name; }

Scenario load_with(std::vector<std::string> set, const std::string& file = "by-path.yaml") {
  LoadOptions o;
  o.data_root = fixture("data");
  o.set = std::move(set);
  return load_scenario(fixture(file), o);
}

std::vector<std::string> errors_of(std::vector<std::string> set, const std::string& file = "by-path.yaml") {
  try {
    load_with(std::move(set), file);
  } catch (const InputErrors& e) {
    std::vector<std::string> out;
    for (const auto& d : e.diagnostics()) out.push_back(d.format());
    return out;
  }
  return {};
}
}  // namespace

TEST_CASE("set: scalars - quantities and token counts", "[overrides]") {
  const Scenario s =
      load_with({"workload.batch=8", "workload.context=32K", "machine.pe.hbm.bandwidth=2 TB/s",
                 "machine.levels.sip.latency=1us", "model.moe.top_k=4", "scope=attention", "name=what-if"});
  CHECK(s.workload.batch == 8);
  CHECK(s.workload.context == 32768);
  CHECK(s.machine.pe.hbm_bandwidth == Approx(2e12));  // --set wins over the file's override
  CHECK(s.machine.levels[1].latency == Approx(1e-6));
  CHECK(s.model.moe.top_k == 4);
  CHECK(s.workload.scope == Scope::attention);
  CHECK(s.name == "what-if");
}

TEST_CASE("set: YAML values: lists and mappings", "[overrides]") {
  const Scenario s = load_with({"sweep.parallelism.cp=[1, 2, 4]", "plugins.objectives=[latency, throughput]",
                                "plugins.search={name: random, samples: 100, seed: 7}", "dtype={kv: fp8}"});
  CHECK(s.sweep.cp == std::vector<std::int32_t>{1, 2, 4});
  REQUIRE(s.plugins.objectives.size() == 2);
  CHECK(s.plugins.objectives[1].name == "throughput");
  CHECK(s.plugins.search.name == "random");
  REQUIRE(s.plugins.search.params.size() == 2);
  CHECK(s.plugins.search.params[1].key == "seed");
  CHECK(s.plugins.search.params[1].where.file == "<command line>");
  CHECK(s.model.dtype.kv == DType::fp8);
  CHECK(s.model.dtype.weights == DType::bf16);
}

TEST_CASE("plugins.<kind>=name and plugins.<kind>.<param>=value", "[overrides]") {
  // A plain name given a parameter becomes {name: <name>, <param>: <value>}.
  Scenario s = load_with({"plugins.search=random", "plugins.search.seed=7"});
  CHECK(s.plugins.search.name == "random");
  REQUIRE(s.plugins.search.params.size() == 1);
  CHECK(s.plugins.search.params[0].key == "seed");
  CHECK(s.plugins.search.params[0].text == "7");
  s = load_with({"plugins.memory=standard", "plugins.memory.reserve=1 GB"});
  CHECK(s.plugins.memory.name == "standard");
  CHECK(s.plugins.memory.params[0].text == "1 GB");
  // A plugin left at its default gets the parameter: {name: exhaustive, max_configs: 10}.
  s = load_with({"plugins.search.max_configs=10"});
  CHECK(s.plugins.search.name == "exhaustive");
  CHECK(s.plugins.search.params[0].key == "max_configs");
  // A mapping choice gets the parameter added.
  s = load_with({"plugins.memory={name: standard}", "plugins.memory.reserve=1 GB"});
  CHECK(s.plugins.memory.params.size() == 1);
}

TEST_CASE("set: model=... and machine=... replace the whole part", "[overrides]") {
  const Scenario s =
      load_with({"machine=Tiny-Cube", "model=" + fixture("data/models/tiny-moe.yaml")}, "inline.yaml");
  CHECK(s.machine.name == "Tiny-Cube");
  CHECK(s.model.name == "Tiny-MoE");
}

TEST_CASE("bad set items are errors at <command line> naming --set", "[overrides]") {
  auto e = errors_of({"machine.pe.hbm.bandwdith=2 TB/s"});
  REQUIRE(e.size() == 1);
  CHECK(
      e[0] ==
      "<command line>: error: --set machine.pe.hbm.bandwdith=2 TB/s: no key 'machine.pe.hbm.bandwdith' in "
      "the "
      "machine schema (did you mean 'machine.pe.hbm.bandwidth'?); machine.pe.hbm takes capacity, bandwidth, "
      "usable and reported");
  e = errors_of({"machine.levels.cubee.link_bw=1 TB/s"});
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("no level named 'cubee' in machine.levels (did you mean 'machine.levels.cube.link_bw'?)") !=
        std::string::npos);
  e = errors_of({"workload.batch"});
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("<command line>: error: --set 'workload.batch': expected KEY=VALUE") == 0);
  e = errors_of({"workload.batch=[1, 2"});
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("the value is not valid YAML") != std::string::npos);
  e = errors_of({"machine.pe.hbm.bandwidth=2"});
  REQUIRE(e.size() == 1);
  CHECK(e[0] ==
        "<command line>: error: machine.pe.hbm.bandwidth: expected a bandwidth with a unit (B/s, e.g. \"3.35 "
        "TB/s\", "
        "\"450 GB/s\", \"400 Gb/s\"), found \"2\" (no unit) (given with --set)");
  e = errors_of({"model.heads.x=1"});
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("model.heads holds a value") != std::string::npos);
  e = errors_of({"overrides.x=1"});
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("'overrides' cannot be overridden") != std::string::npos);
  e = errors_of({"plugins.latency.alpha=2"}, "by-name.yaml");
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("plugins.latency is a list of plugins") != std::string::npos);
}

TEST_CASE("all problems are reported together", "[overrides]") {
  const auto e = errors_of({"workload.contxt=1", "machine.pe.hbm.capacity=-1 GB", "model.layers=0"});
  REQUIRE(e.size() == 3);
  CHECK(e[0].find("workload.contxt") != std::string::npos);
  CHECK(e[1].find("model.layers: expected a positive integer, found 0") != std::string::npos);
  CHECK(e[2].find("machine.pe.hbm.capacity: expected a positive byte size") != std::string::npos);
}

TEST_CASE("a value given with --set is checked by the schema like a file value", "[overrides]") {
  // by-path.yaml overrides model.heads to 32; kv_heads 5 no longer divides it.
  const auto e = errors_of({"model.kv_heads=5"});
  REQUIRE(e.size() == 1);
  CHECK(e[0] ==
        "<command line>: error: model.kv_heads: expected a divisor of heads (32, grouped-query attention), "
        "found 5 (given with --set)");
}

TEST_CASE("set: number formats of parts - attention math - dispatch", "[overrides][dtype]") {
  // The model's expert_weights survives the scenario's `weights` (each key replaces only itself).
  const Scenario s =
      load_with({"model.dtype.expert_weights=nvfp4", "dtype.weights=fp8", "dtype.attention=fp8",
                 "dtype.dispatch=mxfp8", "dtype.kv=fp8", "machine.pe.flops.nvfp4=400 TFLOP/s"});
  const DTypes& d = s.model.dtype;
  CHECK(d.weights == DType::fp8);
  CHECK(d.expert_weights == DType::nvfp4);
  CHECK_FALSE(d.attention_weights.has_value());
  CHECK(d.weights_of(WeightPart::attention) == DType::fp8);
  CHECK(d.weights_of(WeightPart::lm_head) == DType::fp8);
  CHECK(d.attention == DType::fp8);
  CHECK(d.attention_kernel() == DType::fp8);
  CHECK(d.dispatch_payload() == DType::mxfp8);
  CHECK(s.machine.peak_flops(DType::nvfp4) == Approx(400e12));
  CHECK(s.machine.peak_flops(DType::mxfp4) == Approx(400e12));  // the FP4 twin

  const auto bad = errors_of({"dtype.attention=fp4"});
  REQUIRE(bad.size() == 1);
  CHECK_THAT(bad[0], Catch::Contains("dtype.attention: expected a number format") &&
                         Catch::Contains("nvfp4, mxfp4 or mxfp8") && Catch::Contains("did you mean"));
}

TEST_CASE("machine.plugins.<plugin>.<param> and plugins.latency.<name>.<param> on a list", "[overrides]") {
  // A machine block is added when absent, kept raw for its plugin's schema.
  const Scenario s = load_with(
      {"machine.plugins.sram_tier.sram_capacity=1 GB", "machine.plugins.sram_tier.sram_bandwidth=20 TB/s",
       "plugins.latency=[overlap, calibrated]", "plugins.latency.calibrated.framework=vllm"});
  const MachineBlock* b = find_machine_block(s.machine_blocks, "sram_tier");
  REQUIRE(b != nullptr);
  CHECK(b->label == "machine.plugins.sram_tier");
  REQUIRE(b->params.size() == 2);
  CHECK(b->params[0].key == "sram_capacity");
  CHECK(b->params[0].text == "1 GB");
  CHECK(b->params[1].text == "20 TB/s");
  REQUIRE(s.plugins.latency.size() == 2);
  CHECK(s.plugins.latency[0].params.empty());
  REQUIRE(s.plugins.latency[1].params.size() == 1);
  CHECK(s.plugins.latency[1].params[0].key == "framework");
  CHECK(s.plugins.latency[1].params[0].text == "vllm");

  CHECK(errors_of({"plugins.latency=[overlap, calibrated]", "plugins.latency.calibrate.framework=vllm"}) ==
        std::vector<std::string>{
            "<command line>: error: --set plugins.latency.calibrate.framework=vllm: no "
            "plugin named 'calibrate' in plugins.latency (did you mean "
            "'plugins.latency.calibrated.framework'?); the list holds overlap and calibrated"});
  CHECK(errors_of({"machine.plugins.sram_tier=1"}) ==
        std::vector<std::string>{
            "<command line>: error: --set machine.plugins.sram_tier=1: a machine-block "
            "parameter is machine.plugins.<plugin>.<param>, found 'machine.plugins.sram_tier'"});
}

TEST_CASE("plugins.latency.<name>.<param> on a single choice of that name", "[overrides]") {
  // `latency: calibrated` (a plain name) and `{name: calibrated}` take the named path as well.
  Scenario s = load_with({"plugins.latency=calibrated", "plugins.latency.calibrated.framework=vllm"});
  REQUIRE(s.plugins.latency.size() == 1);
  CHECK(s.plugins.latency[0].name == "calibrated");
  REQUIRE(s.plugins.latency[0].params.size() == 1);
  CHECK(s.plugins.latency[0].params[0].key == "framework");
  CHECK(s.plugins.latency[0].params[0].text == "vllm");
  s = load_with({"plugins.objectives={name: cost}", "plugins.objectives.cost.base=100"});
  REQUIRE(s.plugins.objectives.size() == 1);
  REQUIRE(s.plugins.objectives[0].params.size() == 1);
  CHECK(s.plugins.objectives[0].params[0].key == "base");
  CHECK(errors_of({"plugins.latency=calibrated", "plugins.latency.calibrate.framework=vllm"}) ==
        std::vector<std::string>{
            "<command line>: error: --set plugins.latency.calibrate.framework=vllm: no plugin named "
            "'calibrate' in plugins.latency (did you mean 'plugins.latency.calibrated.framework'?); it holds "
            "calibrated"});
}

}  // namespace test_overrides
