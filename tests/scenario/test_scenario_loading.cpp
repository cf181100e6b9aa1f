#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <cstdlib>
#include <filesystem>

#include "scenario/data_roots.hpp"
#include "scenario/scenario_loader.hpp"

using namespace tessera;
namespace fs = std::filesystem;

namespace {
std::string fixture(const std::string& name) { return std::string(TESSERA_TEST_DIR) + "/fixtures/" + name; }
LoadOptions opts() {
  LoadOptions o;
  o.data_root = fixture("data");
  return o;
}
double flops(const MachineSpec& m, DType t) { return m.pe.flops[static_cast<std::size_t>(t)]; }
}  // namespace

TEST_CASE("model and machine by path - with file overrides", "[scenario]") {
  const Scenario s = load_scenario(fixture("by-path.yaml"), opts());
  CHECK(s.name == "by-path");
  CHECK(s.model_file == fixture("data/models/tiny-moe.yaml"));
  CHECK(s.model.name == "Tiny-MoE");
  CHECK(s.model.layers == 8);
  CHECK(s.model.heads == 32);            // overridden
  CHECK(s.model.head_dim == 1024 / 32);  // default hidden/heads, after the override
  CHECK(s.model.kv_heads == 4);
  CHECK(s.model.tied_embeddings);
  CHECK(s.model.attention_bias);
  CHECK_FALSE(s.model.mlp_bias);
  REQUIRE(s.model.has_moe);
  CHECK(s.model.moe.experts == 8);
  CHECK(s.model.moe.shared_experts == 1);
  CHECK(s.model.moe.dense_layers == 1);
  CHECK_FALSE(s.model.has_mla);

  const MachineSpec& m = s.machine;
  CHECK(m.name == "Tiny-Cube");
  CHECK(m.pe.name == "core");
  CHECK(flops(m, DType::bf16) == Approx(100e12));
  CHECK(flops(m, DType::fp8) == Approx(200e12));
  CHECK(flops(m, DType::fp32) == 0);
  CHECK(m.pe.hbm_capacity == Approx(16.0 * 1024 * 1024 * 1024));
  CHECK(m.pe.hbm_bandwidth == Approx(1.5e12));  // overridden
  CHECK(m.pe.hbm_usable == Approx(0.9));
  REQUIRE(m.levels.size() == 3);
  CHECK(m.levels[0].link_bw == Approx(800e9));  // overridden by level name
  CHECK(m.levels[0].topology == LinkTopology::all_to_all);
  CHECK(m.levels[1].uplink_bw == Approx(50e9));           // 400 Gb/s
  CHECK(m.levels[2].topology == LinkTopology::switched);  // default
  CHECK(m.levels[2].uplink_bw == 0);
  CHECK(m.total_pes() == 32);
  CHECK(m.stage_overhead == Approx(2e-6));
  CHECK(m.energy.present);
  CHECK(m.energy.hbm_byte == Approx(30e-12));

  // The efficiency block is kept raw, with locations, for the latency plugin's schema.
  REQUIRE(s.machine_blocks.size() == 1);
  const auto& eff = s.machine_blocks[0].params;
  // Under its top-level key: the plugin whose descriptor declares `efficiency` reads it.
  CHECK(s.machine_blocks[0].key == "efficiency");
  CHECK(s.machine_blocks[0].plugin.empty());
  REQUIRE(eff.size() == 3);
  CHECK(eff[0].key == "gemm");
  CHECK(eff[0].text == "0.8");
  CHECK(eff[0].where.line == 15);
  CHECK(eff[2].is_list);
  CHECK(eff[2].items == std::vector<std::string>{"0.5", "0.9"});
  CHECK(eff[2].text == "0.5,0.9");

  CHECK(s.workload.mode == Mode::prefill);
  CHECK(s.workload.context == 8192);
  CHECK(s.workload.batch == 1);
  CHECK(s.workload.chunk == 8192);  // default: the whole prompt
  CHECK(s.workload.scope == Scope::full);
}

TEST_CASE("defaults: plugins - sweep - report - dtype", "[scenario]") {
  const Scenario s = load_scenario(fixture("by-path.yaml"), opts());
  REQUIRE(s.plugins.latency.size() == 1);
  CHECK(s.plugins.latency[0].name == "calibrated");
  CHECK(s.plugins.memory.name == "standard");
  CHECK(s.plugins.search.name == "exhaustive");
  REQUIRE(s.plugins.objectives.size() == 3);
  CHECK(s.plugins.objectives[0].name == "latency");
  CHECK(s.plugins.objectives[1].name == "pes");
  CHECK(s.plugins.objectives[2].name == "efficiency");
  const Sweep def;
  CHECK(s.sweep.cp == std::vector<std::int32_t>{1});
  CHECK(s.sweep.ep == std::vector<std::int32_t>{1});
  CHECK(s.sweep.kv_shard_mode == def.kv_shard_mode);
  CHECK(s.sweep.ffn_shard_scope.size() == 3);
  CHECK(s.sweep.tp_placement == std::vector<std::int8_t>{0, 1});
  CHECK(s.sweep.cp_placement == std::vector<std::int8_t>{1, 0});
  CHECK(s.sweep.cp_ring_variant == std::vector<CpRingVariant>{CpRingVariant::kv, CpRingVariant::qoml});
  CHECK(s.sweep.hardware.empty());
  CHECK(s.report.top == 20);
  CHECK(s.report.csv.empty());
  CHECK(s.model.dtype.weights == DType::bf16);
}

TEST_CASE("model and machine by name - plugins - sweep and report as written", "[scenario]") {
  const Scenario s = load_scenario(fixture("by-name.yaml"), opts());
  CHECK(s.name == "by-name");  // the file stem when `name:` is absent
  CHECK(s.model.name == "Tiny-MoE");
  CHECK(s.machine.name == "Tiny-Cube");
  CHECK(fs::path(s.machine_file).filename() == "tiny-cube.yaml");
  // dtype: partial override of the model's.
  CHECK(s.model.dtype.weights == DType::fp8);
  CHECK(s.model.dtype.kv == DType::bf16);
  CHECK(s.model.dtype.activations == DType::bf16);
  CHECK(s.workload.mode == Mode::decode);
  CHECK(s.workload.context == 131072);
  CHECK(s.workload.batch == 4);
  CHECK(s.workload.scope == Scope::attention);

  REQUIRE(s.plugins.latency.size() == 2);
  CHECK(s.plugins.latency[1].name == "calibrated");
  REQUIRE(s.plugins.latency[1].params.size() == 1);
  CHECK(s.plugins.latency[1].params[0].key == "gemm_efficiency");
  CHECK(s.plugins.latency[1].params[0].text == "0.8");
  CHECK(s.plugins.latency[1].where.line == 9);
  CHECK(s.plugins.memory.params[0].text == "2 GB");
  CHECK(s.plugins.search.name == "random");
  REQUIRE(s.plugins.objectives.size() == 3);
  CHECK(s.plugins.objectives[1].name == "cost");
  CHECK(s.plugins.objectives[1].params[0].text == "30000 USD");

  CHECK(s.sweep.cp == std::vector<std::int32_t>{1, 2, 4});
  CHECK(s.sweep.tp == std::vector<std::int32_t>{1, 2});
  CHECK(s.sweep.pp == std::vector<std::int32_t>{1});
  CHECK(s.sweep.ep == std::vector<std::int32_t>{2});
  CHECK(s.sweep.kv_shard_mode == std::vector<KvShardMode>{KvShardMode::replicate});
  CHECK(s.sweep.ffn_shard_scope == std::vector<FfnShardScope>{FfnShardScope::tp_cp});
  CHECK(s.sweep.tp_placement == std::vector<std::int8_t>{0, 2});
  CHECK(s.sweep.cp_placement == std::vector<std::int8_t>{3});
  CHECK(s.sweep.cp_ring_variant == std::vector<CpRingVariant>{CpRingVariant::tree, CpRingVariant::kv});
  REQUIRE(s.sweep.hardware.size() == 3);
  CHECK(s.sweep.hardware[0].path == "machine.pe.hbm.bandwidth");
  CHECK(s.sweep.hardware[0].dimension == Dimension::bandwidth);
  CHECK(s.sweep.hardware[0].values == std::vector<double>{0.5e12, 1e12, 2e12});
  CHECK(s.sweep.hardware[1].values[1] == Approx(50e9));
  CHECK(s.sweep.hardware[2].values == std::vector<double>{2, 4});
  CHECK(s.report.top == 5);
  CHECK(s.report.csv == "out/x.csv");
  CHECK(s.report.json == "out/x.json");
}

TEST_CASE("inline model and machine", "[scenario]") {
  const Scenario s = load_scenario(fixture("inline.yaml"), opts());
  CHECK(s.model_file == "inline");
  CHECK(s.machine_file == "inline");
  CHECK(s.model.ffn_kind == FfnKind::plain);
  CHECK(s.model.kv_heads == 4);  // default: heads
  CHECK(s.model.head_dim == 64);
  CHECK(s.machine.pe.name == "pe");
  CHECK(s.machine.pe.hbm_usable == 1.0);
  CHECK(s.machine.stage_overhead == 0);
  CHECK_FALSE(s.machine.energy.present);
  CHECK(s.machine.placement_name(1) == "node");
  // Placement defaults follow the machine: the PE and the first level.
  CHECK(s.sweep.cp_placement == std::vector<std::int8_t>{1, 0});
}

TEST_CASE("options model_override and machine_override replace the scenario's", "[scenario]") {
  LoadOptions o = opts();
  o.model_override = std::string(TESSERA_SOURCE_DIR) + "/tests/fixtures/hf/llama3.1-70b/config.json";
  o.machine_override = fixture("data/machines/tiny-cube.yaml");
  const Scenario s = load_scenario(fixture("inline.yaml"), o);
  CHECK(s.model.layers == 80);
  CHECK(s.model.hidden == 8192);
  CHECK(s.machine.name == "Tiny-Cube");
  CHECK(s.model_file == o.model_override);
}

TEST_CASE("data roots: the option alone - else TESSERA_DATA_DIR in front of the shipped data", "[scenario]") {
  LoadOptions o;
  // The shipped data as the build staged it beside its programs (never the source tree).
  const std::string shipped = std::string(TESSERA_BINARY_DIR) + "/share/tessera";
  ::setenv("TESSERA_DATA_DIR", (fixture("data") + ":" + fixture("none")).c_str(), 1);
  CHECK(data_roots(o) == std::vector<std::string>{fixture("data"), fixture("none"), shipped});
  // A name of the extra root, and one only the shipped root has (the extra root hides nothing).
  CHECK(load_scenario(fixture("by-name.yaml"), o).model.name == "Tiny-MoE");
  o.set = {"model=llama3.1-8b"};
  CHECK(load_scenario(fixture("by-name.yaml"), o).model.name == "Llama-3.1-8B");
  o.set.clear();
  // The extra root has no scenarios/: the default scenario is the shipped one.
  CHECK(default_scenario_path(o) == shipped + "/scenarios/llama3.1-70b-decode-128k.yaml");
  ::unsetenv("TESSERA_DATA_DIR");
  CHECK(data_roots(o) == std::vector<std::string>{shipped});
  CHECK(default_scenario_path(o) == shipped + "/scenarios/llama3.1-70b-decode-128k.yaml");
  o.data_root = fixture("data");
  CHECK(data_roots(o) == std::vector<std::string>{fixture("data")});
}

TEST_CASE("the default scenario loads", "[scenario][shipped]") {
  LoadOptions o;
  const Scenario s = load_scenario(default_scenario_path(o), o);
  CHECK(s.model.name == "Llama-3.1-70B");
  CHECK(s.machine.name == "cube-sip");
  CHECK(s.workload.mode == Mode::decode);
  CHECK(s.workload.context == 131072);
  CHECK(s.workload.batch == 1);
  CHECK(s.sweep.cp == std::vector<std::int32_t>{1, 2, 4, 8, 16, 32, 64, 96});
  CHECK(s.sweep.tp == std::vector<std::int32_t>{1, 2, 4, 8, 16, 32});
  CHECK(s.sweep.pp == std::vector<std::int32_t>{1, 2, 4, 8, 16});
  CHECK(s.sweep.dp == std::vector<std::int32_t>{1, 2, 4});
  CHECK(s.report.top == 20);
}

TEST_CASE("every shipped model - machine and scenario validates", "[scenario][shipped]") {
  LoadOptions o;
  for (const char* dir : {"models", "machines", "scenarios"}) {
    const fs::path p = fs::path(TESSERA_SOURCE_DIR) / dir;
    if (!fs::is_directory(p)) continue;
    for (const auto& e : fs::directory_iterator(p)) {
      if (e.path().extension() != ".yaml") continue;
      INFO(e.path().string());
      try {
        validate_file(e.path().string(), o);
        SUCCEED();
      } catch (const InputError& err) {
        FAIL(err.what());
      }
    }
  }
}

TEST_CASE("machine fields by dotted path", "[scenario]") {
  MachineSpec m = load_machine_file(fixture("data/machines/tiny-cube.yaml"));
  CHECK(machine_field_dimension("machine.pe.hbm.bandwidth") == Dimension::bandwidth);
  CHECK(machine_field_dimension("machine.pe.hbm.capacity") == Dimension::bytes);
  CHECK(machine_field_dimension("machine.pe.flops.fp8") == Dimension::flop_rate);
  CHECK(machine_field_dimension("machine.levels.anything.latency") == Dimension::time);
  CHECK(machine_field_dimension("machine.energy.flop") == Dimension::energy);
  CHECK(machine_field_dimension("machine.pe.hbm.usable") == Dimension::none);
  CHECK_THROWS_AS(machine_field_dimension("machine.pe.name"), InputError);
  CHECK_THROWS_AS(machine_field_dimension("machine.levels.cube.topology"), InputError);

  set_machine_field(m, "machine.pe.hbm.bandwidth", 2e12);
  CHECK(m.pe.hbm_bandwidth == 2e12);
  CHECK(get_machine_field(m, "machine.pe.hbm.bandwidth") == 2e12);
  set_machine_field(m, "machine.levels.sip.link_bw", 123e9);
  CHECK(m.levels[1].link_bw == 123e9);
  set_machine_field(m, "machine.levels.cube.fanout", 8);
  CHECK(m.levels[0].fanout == 8);
  CHECK(get_machine_field(m, "machine.levels.cube.fanout") == 8);
  set_machine_field(m, "machine.pe.flops.bf16", 1e15);
  CHECK(m.peak_flops(DType::bf16) == 1e15);
  CHECK(get_machine_field(m, "machine.stage_overhead") == Approx(2e-6));
  CHECK_THROWS_WITH(set_machine_field(m, "machine.levels.cubee.link_bw", 1),
                    Catch::Contains("did you mean 'cube'"));
  CHECK_THROWS_WITH(get_machine_field(m, "machine.pe.hbm.bandwdith"),
                    Catch::Contains("did you mean 'bandwidth'"));
}

TEST_CASE("load_model_file and load_machine_file check the kind", "[scenario]") {
  CHECK_THROWS_WITH(load_model_file(fixture("data/machines/tiny-cube.yaml")),
                    Catch::Contains("kind: expected model, found \"machine\""));
  CHECK(load_model_file(fixture("data/models/tiny-moe.yaml")).name == "Tiny-MoE");
}

TEST_CASE("shipped Blackwell machines carry the dense FP4 peak for nvfp4 and mxfp4", "[scenario][dtype]") {
  // NVIDIA's "with sparsity" FP4 figures halved: HGX B200 144 PF / 8 GPUs / 2 = 9 PF; GB200
  // NVL72 1,440 PF / 72 / 2 = 10 PF.
  const fs::path root = fs::path(TESSERA_SOURCE_DIR) / "machines";
  const MachineSpec b200 = load_machine_file((root / "dgx-b200.yaml").string());
  CHECK(flops(b200, DType::nvfp4) == Approx(9e15));
  CHECK(flops(b200, DType::mxfp4) == Approx(9e15));
  CHECK(b200.peak_flops(DType::mxfp8) == Approx(4.5e15));  // no key: the fp8 peak
  const MachineSpec gb200 = load_machine_file((root / "gb200-nvl72.yaml").string());
  CHECK(flops(gb200, DType::nvfp4) == Approx(10e15));
  CHECK(flops(gb200, DType::mxfp4) == Approx(10e15));
  const MachineSpec h100 = load_machine_file((root / "dgx-h100.yaml").string());
  CHECK(flops(h100, DType::nvfp4) == 0);
  CHECK(h100.peak_flops(DType::nvfp4) == Approx(1979e12));  // no FP4 units: fp8
  CHECK(machine_field_dimension("machine.pe.flops.nvfp4") == Dimension::flop_rate);
  CHECK(machine_field_dimension("machine.pe.flops.mxfp8") == Dimension::flop_rate);
  CHECK_THROWS_WITH(machine_field_dimension("machine.pe.flops.fp4"), Catch::Contains("did you mean"));
}
