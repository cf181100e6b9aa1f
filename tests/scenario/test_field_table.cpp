// The field table (scenario/fields/field_table.hpp): sound rows, the keys and the numeric leaves
// derived from them, and one getter/setter per numeric machine leaf reaching its own member.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include "tessera_build_paths.hpp"

#include "host/param_check.hpp"
#include "host/plugin_defaults.hpp"
#include "scenario/fields/field_access.hpp"
#include "scenario/fields/field_table.hpp"
#include "scenario/scenario_loader.hpp"
#include "scenario/schemas/schemas.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_field_table {

using namespace tessera;
using schema::FieldRow;
using schema::FieldUse;

namespace {
std::string fixture(const std::string& name) { return std::string(TESSERA_TEST_DIR) + "/fixtures/" + name; }

std::string parent_of(std::string_view path) {
  const auto dot = path.rfind('.');
  return dot == std::string_view::npos ? std::string() : std::string(path.substr(0, dot));
}

std::vector<std::string> choices(const FieldRow& r) {
  std::vector<std::string> v;
  for (std::uint32_t i = 0; i < r.spec.choice_count; ++i) v.emplace_back(r.spec.choices[i].value);
  return v;
}
}  // namespace

TEST_CASE("field table rows - unique paths with a parent mapping and sound defaults", "[scenario][schema]") {
  std::set<std::string_view> seen;
  for (const FieldRow& r : schema::field_rows()) {
    INFO(std::string(r.path));
    CHECK(seen.insert(r.path).second);
    CHECK(std::string_view(r.spec.name) == schema::field_key(r));
    CHECK(r.spec.help != nullptr);
    CHECK(std::string_view(r.spec.help).size() > 3);
    const std::string parent = parent_of(r.path);
    if (!parent.empty()) {
      const std::string list_parent = parent.ends_with(".*") ? parent.substr(0, parent.size() - 2) : parent;
      const FieldRow* p = schema::find_field(list_parent);
      REQUIRE(p != nullptr);
      CHECK((p->use == FieldUse::mapping || p->use == FieldUse::reference));
      CHECK(parent.ends_with(".*") == (p->use == FieldUse::mapping && p->list));
    }
    // A declared default satisfies the row's own type and range (lists and placeholders aside).
    const char* def = r.spec.default_value;
    if (r.use == FieldUse::value && def && *def && !r.list && r.format == schema::FieldFormat::plain) {
      const ParamCheck c = check_param_value(r.spec, def);
      CHECK(c.problem == ParamProblem::none);
    }
  }
  CHECK(schema::find_field("machine.levels.*.link_bw")->spec.dimension == Dimension::bandwidth);
  CHECK(schema::find_field("no.such.path") == nullptr);
}

TEST_CASE("field table - the keys of each mapping come from its rows in table order", "[scenario][schema]") {
  CHECK(*loader::schema_keys("machine.pe.hbm") ==
        std::vector<std::string>{"capacity", "bandwidth", "usable", "reported"});
  CHECK(*loader::schema_keys("workload") ==
        std::vector<std::string>{"mode", "context", "batch", "chunk", "input", "output"});
  CHECK(*loader::schema_keys("serving") ==
        std::vector<std::string>{"slo", "max_pes", "prefill_machine", "decode_machine", "disaggregated",
                                 "requests", "prefix_cache", "speculative", "eplb"});
  CHECK(*loader::schema_keys("serving.disaggregated.decode") ==
        std::vector<std::string>{"parallelism", "eplb"});
  CHECK(*loader::schema_keys("serving.eplb") == std::vector<std::string>{"redundant_experts"});
  CHECK(*loader::schema_keys("serving.disaggregated") ==
        std::vector<std::string>{"transfer_overlap", "max_replicas", "prefill_batch", "transfer", "prefill",
                                 "decode"});
  CHECK(*loader::schema_keys("serving.slo") ==
        std::vector<std::string>{"ttft", "tpot", "e2e", "tokens_per_s_per_user"});
  CHECK(*loader::schema_keys("sweep") == std::vector<std::string>{"parallelism", "hardware", "serving"});
  CHECK(*loader::schema_keys("machine.pe.flops") == dtype_names());
  CHECK(*loader::schema_keys("machine.levels.*.collectives.ring") ==
        std::vector<std::string>{"ll", "ll128", "simple"});
  CHECK(loader::schema_keys("machine.levels.*")->front() == "name");
  CHECK(loader::schema_keys("")->size() ==
        16);  // `framework` the 11th, `engine` the 12th, `serving` the 15th
  CHECK(*loader::schema_keys("model") == std::vector<std::string>{"schema_version",
                                                                  "kind",
                                                                  "name",
                                                                  "description",
                                                                  "hf_id",
                                                                  "layers",
                                                                  "hidden",
                                                                  "heads",
                                                                  "kv_heads",
                                                                  "head_dim",
                                                                  "ffn",
                                                                  "ffn_kind",
                                                                  "vocab",
                                                                  "mtp_layers",
                                                                  "tied_embeddings",
                                                                  "bias",
                                                                  "dtype",
                                                                  "moe",
                                                                  "mla",
                                                                  "layer_types",
                                                                  "layer_pattern",
                                                                  "ffn_types",
                                                                  "ffn_pattern",
                                                                  "attention",
                                                                  "sparse_attention",
                                                                  "linear_attention",
                                                                  "mamba",
                                                                  "parallel_block"});
  CHECK(*loader::schema_keys("model.attention") ==
        std::vector<std::string>{"sliding_window", "chunk", "sinks", "output_gate"});
  CHECK(*loader::schema_keys("model.mamba") ==
        std::vector<std::string>{"heads", "head_dim", "state_size", "groups", "conv_kernel", "chunk"});
  CHECK(loader::schema_keys("workload.context") == nullptr);  // a value, not a mapping
  CHECK(loader::schema_free_keys("sweep.hardware"));
  CHECK(loader::schema_free_keys("plugins.search"));
  CHECK(loader::schema_free_keys("machine.efficiency"));
  CHECK_FALSE(loader::schema_free_keys("machine.energy"));
}

TEST_CASE("field table - choices agree with the names the code uses", "[scenario][schema]") {
  std::vector<std::string> algorithms{"auto"};
  for (int a = 0; a < kCollAlgorithmCount; ++a)
    algorithms.emplace_back(coll_algorithm_name(static_cast<CollAlgorithm>(a)));
  CHECK(choices(*schema::find_field("machine.levels.*.collectives.algorithm")) == algorithms);
  std::vector<std::string> fabrics;
  for (int f = 0; f < kFabricCount; ++f) fabrics.emplace_back(fabric_name(static_cast<Fabric>(f)));
  CHECK(choices(*schema::find_field("machine.levels.*.collectives.fabric")) == fabrics);
  std::vector<std::string> topologies;
  for (auto t : {LinkTopology::switched, LinkTopology::ring, LinkTopology::all_to_all, LinkTopology::torus})
    topologies.emplace_back(topology_name(t));
  CHECK(choices(*schema::find_field("machine.levels.*.topology")) == topologies);
}

TEST_CASE("numeric machine fields - compact listing from the rows", "[scenario][schema]") {
  CHECK(numeric_machine_fields() ==
        "machine.pe.flops.<dtype>, machine.pe.hbm.<capacity|bandwidth|usable|reported>, "
        "machine.levels.<level>.<fanout|link_bw|latency|uplink_bw>, "
        "machine.levels.<level>.collectives.<in_network|one_shot|two_shot|direct>.<base|hop|bw_factor>, "
        "machine.levels.<level>.collectives.link_efficiency, "
        "machine.levels.<level>.collectives.<ring|tree>.<ll|ll128|simple>.<base|hop|bw_factor>, "
        "machine.stage_overhead, machine.energy.<flop|hbm_byte|link_byte|static_power>, "
        "machine.price.<pe|lifetime|power|electricity|utilization>, "
        "machine.host_memory.<dram|ssd>.<capacity|bandwidth|latency>");
  CHECK(numeric_machine_fields("machine.levels.*.collectives.ring") ==
        "machine.levels.<level>.collectives.ring.<ll|ll128|simple>.<base|hop|bw_factor>");
}

TEST_CASE("numeric machine fields - every leaf set and read back through its own member",
          "[scenario][schema]") {
  MachineSpec m = load_machine_file(fixture("data/machines/tiny-cube.yaml"));
  std::vector<std::pair<std::string, double>> set;
  double v = 1;
  for (const FieldRow& r : schema::field_rows()) {
    if (r.file != schema::FieldFile::machine || !(r.slot.real || r.slot.integer)) continue;
    std::string p(r.path);
    if (const auto star = p.find(".*."); star != std::string::npos) p.replace(star, 3, ".sip.");
    if (const auto dt = p.find("<dtype>"); dt != std::string::npos) p.replace(dt, 7, "fp8");
    set.emplace_back(p, v);
    set_machine_field(m, p, v);
    v += 1;
  }
  CHECK(set.size() >= 43);
  for (const auto& [p, x] : set) {
    INFO(p);
    CHECK(get_machine_field(m, p) == x);  // no two rows share a member
  }
  CHECK(m.levels[1].link_bw == get_machine_field(m, "machine.levels.sip.link_bw"));
  CHECK(m.levels[0].link_bw == Approx(400e9));  // another level untouched
  CHECK(m.pe.flops[static_cast<std::size_t>(DType::fp8)] == get_machine_field(m, "machine.pe.flops.fp8"));
  CHECK(m.energy.present);
}

TEST_CASE("field table - the default objectives text is the defaults table's list", "[scenario][schema]") {
  std::string text = "[";
  for (const char* name : plugin_defaults::kObjectives)
    text += std::string(text.size() > 1 ? ", " : "") + name;
  text += "]";
  CHECK(text == plugin_defaults::kObjectivesText);
  CHECK(std::string(schema::find_field("plugins.objectives")->spec.default_value) == text);
  CHECK(std::string(schema::find_field("plugins.latency")->spec.default_value) == plugin_defaults::kLatency);
}

TEST_CASE("field table - the sweep's enumerations list the SDK names in the enum's order",
          "[scenario][schema]") {
  // The scenario parser maps the i-th choice of these rows to the i-th enum value.
  const auto names = [](const char* path) { return choices(*schema::find_field(path)); };
  CHECK(names("sweep.parallelism.kv_shard_mode") ==
        std::vector<std::string>{kv_shard_mode_name(KvShardMode::split),
                                 kv_shard_mode_name(KvShardMode::replicate)});
  CHECK(names("sweep.parallelism.ffn_shard_scope") ==
        std::vector<std::string>{ffn_shard_scope_name(FfnShardScope::tp),
                                 ffn_shard_scope_name(FfnShardScope::tp_cp),
                                 ffn_shard_scope_name(FfnShardScope::tp_cp_dp)});
  CHECK(names("sweep.parallelism.cp_ring_variant") ==
        std::vector<std::string>{cp_ring_variant_name(CpRingVariant::kv),
                                 cp_ring_variant_name(CpRingVariant::qoml),
                                 cp_ring_variant_name(CpRingVariant::tree)});
}

}  // namespace test_field_table
