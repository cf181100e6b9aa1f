// The SDK's small data types: machine helpers, the parallel-config text form, ParamSet, names.
#include <catch2/catch.hpp>
#include <functional>
#include <iterator>

#include "core/text/input_text.hpp"
#include "tessera/error.hpp"
#include "tessera/machine.hpp"
#include "tessera/parallel_config.hpp"
#include "tessera/plugin/descriptor.hpp"
#include "tessera/plugin/param_set.hpp"
#include "tessera/stage.hpp"

using namespace tessera;

namespace {
MachineSpec cube_sip() {
  MachineSpec m;
  m.name = "cube-sip";
  m.pe.name = "pe";
  m.pe.flops[static_cast<std::size_t>(DType::bf16)] = 128e12;
  m.pe.flops[static_cast<std::size_t>(DType::fp8)] = 256e12;
  m.levels = {{"cube", 16, 400e9, 1e-7, LinkTopology::all_to_all, 0},
              {"sip", 8, 200e9, 3e-7, LinkTopology::ring, 0},
              {"system", 16, 100e9, 1e-6, LinkTopology::switched, 0}};
  return m;
}
double& flops(MachineSpec& m, DType t) { return m.pe.flops[static_cast<std::size_t>(t)]; }
}  // namespace

TEST_CASE("machine: PE counts and placements", "[core]") {
  MachineSpec m = cube_sip();
  CHECK(m.total_pes() == 2048);
  CHECK(m.pes_per_unit(0) == 1);
  CHECK(m.pes_per_unit(1) == 16);
  CHECK(m.pes_per_unit(2) == 128);
  CHECK(m.pes_per_unit(3) == 2048);
  CHECK(m.placement_index("pe") == 0);
  CHECK(m.placement_index("cube") == 1);
  CHECK(m.placement_index("system") == 3);
  CHECK_FALSE(m.placement_index("rack").has_value());
  CHECK(m.placement_name(0) == "pe");
  CHECK(m.placement_name(2) == "sip");
  m.pe.name = "gpu";
  CHECK(m.placement_index("gpu") == 0);
  CHECK(m.placement_index("pe") == 0);  // accepted on every machine
  CHECK(m.placement_name(0) == "gpu");
}

TEST_CASE("machine: peak falls back to the next wider format", "[core]") {
  MachineSpec m = cube_sip();
  CHECK(m.peak_flops(DType::bf16) == 128e12);
  CHECK(m.peak_flops(DType::fp8) == 256e12);
  CHECK(m.peak_flops(DType::int8) == 256e12);  // int8 -> fp8 (same width)
  CHECK(m.peak_flops(DType::fp16) == 128e12);  // fp16 -> bf16 (same width)
  CHECK(m.peak_flops(DType::fp32) == 0);       // nothing wider
  flops(m, DType::int8) = 512e12;
  CHECK(m.peak_flops(DType::int4) == 512e12);
  flops(m, DType::int8) = 0;
  CHECK(m.peak_flops(DType::int4) == 256e12);  // int4 -> int8 -> fp8
  flops(m, DType::fp32) = 60e12;
  flops(m, DType::bf16) = 0;
  CHECK(m.peak_flops(DType::bf16) == 60e12);
  CHECK(std::string(topology_name(LinkTopology::all_to_all)) == "all-to-all");
  CHECK(std::string(topology_name(LinkTopology::switched)) == "switch");
}

TEST_CASE("parallel config: format and parse", "[core]") {
  const MachineSpec m = cube_sip();
  ParallelConfig c;
  c.cp = 8;
  c.tp = 4;
  c.ffn_shard_scope = FfnShardScope::tp_cp;
  c.cp_ring_variant = CpRingVariant::qoml;
  const std::string text = format_config(c, m);
  CHECK(
      text ==
      "cp=8,tp=4,pp=1,dp=1,ep=1,kv_shard_mode=split,ffn_shard_scope=TP+CP,tp_placement=pe,cp_placement=cube,"
      "cp_ring_variant=qoml");
  CHECK(parse_config(text, m) == c);
  const ParallelConfig d = parse_config("cp=8, tp=4", m);
  CHECK(d.cp == 8);
  CHECK(d.tp == 4);
  CHECK(d.cp_placement == 1);  // the first level by default
  CHECK(d.tp_placement == 0);
  CHECK(parse_config("tp_placement=sip,ffn_shard_scope=tp+cp+dp", m).tp_placement == 2);
  CHECK(parse_config("ffn_shard_scope=tp+cp+dp", m).ffn_shard_scope == FfnShardScope::tp_cp_dp);
  CHECK_THROWS_WITH(parse_config("cq=8", m), Catch::Contains("did you mean 'cp'"));
  CHECK_THROWS_WITH(parse_config("tp_placement=cubee", m), Catch::Contains("did you mean 'cube'"));
  CHECK_THROWS_WITH(parse_config("tp=0", m), Catch::Contains("positive integer"));
  CHECK_THROWS_WITH(parse_config("kv_shard_mode=splt", m), Catch::Contains("did you mean 'split'"));
  CHECK_THROWS_AS(parse_config("tp", m), InputError);
  CHECK(std::string(kv_shard_mode_name(KvShardMode::replicate)) == "replicate");
  CHECK(std::string(cp_ring_variant_name(CpRingVariant::tree)) == "tree");
}

TEST_CASE("ParamSet: typed access", "[core]") {
  ParamSet p;
  CHECK(p.empty());
  p.set("samples", std::int64_t{2000});
  p.set("alpha", 0.5);
  p.set("balanced", true);
  p.set("mode", std::string("fast"));
  p.set("weights", std::vector<double>{1, 2});
  CHECK(p.has("samples"));
  CHECK_FALSE(p.has("seed"));
  CHECK(p.integer("samples") == 2000);
  CHECK(p.real("samples") == 2000.0);
  CHECK(p.real("alpha") == 0.5);
  CHECK(p.boolean("balanced"));
  CHECK(p.text("mode") == "fast");
  CHECK(p.list("weights").size() == 2);
  CHECK_THROWS_AS(p.integer("alpha"), PluginError);
  CHECK_THROWS_AS(p.real("seed"), PluginError);
  CHECK_THROWS_AS(p.text("samples"), PluginError);
  p.set("samples", std::int64_t{7});
  CHECK(p.integer("samples") == 7);
  CHECK(p.values().size() == 5);
}

TEST_CASE("enum names", "[core]") {
  CHECK(std::string(stage_block_name(StageBlock::moe)) == "moe");
  CHECK(std::string(bound_name(Bound::comm)) == "comm");
  CHECK(std::string(param_type_name(ParamType::quantity)) == "quantity");
  CHECK(std::string(param_type_name(ParamType::integer)) == "int");
  CHECK(std::string(plugin_kind_name(PluginKind::objective)) == "objective");
  CHECK(plugin_kind_interface_version(PluginKind::latency) == kLatencyInterfaceVersion);
}

TEST_CASE("input text: trim lower and case-blind comparison", "[core]") {
  CHECK(trim(" \t 4.8 TB/s \r\n") == "4.8 TB/s");
  CHECK(trim("   ").empty());
  CHECK(trim_view("  a b  ") == "a b");
  const std::string_view text = "  x ";
  CHECK(trim_view(text).data() == text.data() + 2);  // a view into the text, not a copy
  CHECK(lower("TP+CP Split") == "tp+cp split");
  CHECK(iequals("GiB", "gib"));
  CHECK_FALSE(iequals("GiB", "gi"));
  CHECK(iends_with("scenario.YAML", ".yaml"));
  CHECK_FALSE(iends_with("yaml", ".yaml"));
  CHECK_FALSE(iends_with("scenario.yml", ".yaml"));
}

TEST_CASE("parallel config: std::hash follows equality", "[core]") {
  const std::hash<ParallelConfig> hash;
  ParallelConfig a;
  a.cp = 2;
  a.tp = 8;
  ParallelConfig b = a;
  CHECK(hash(a) == hash(b));
  b.cp_ring_variant = CpRingVariant::qoml;  // one discrete knob apart
  CHECK(hash(a) != hash(b));
  b = a;
  b.tp_placement = 1;
  CHECK(hash(a) != hash(b));
  b = a;
  std::swap(b.cp, b.tp);  // the same numbers in other knobs
  CHECK(hash(a) != hash(b));
}

namespace {
PluginObject* no_object(const ParamSet&) { return nullptr; }
const ParamSpec kThreeParams[] = {
    {"a", ParamType::real, Dimension::none, "1", 0, 1, nullptr, 0, "first"},
    {"b", ParamType::real, Dimension::none, "1", 0, 1, nullptr, 0, "second"},
    {"c", ParamType::real, Dimension::none, "1", 0, 1, nullptr, 0, "third"},
};
const ParamSpec kOneParam[] = {
    {"d", ParamType::boolean, Dimension::none, "true", 0, 1, nullptr, 0, "fourth"}};
constexpr PluginDescriptor kBuilt = make_descriptor({
    .kind = PluginKind::search,
    .name = "built",
    .version = "2.1.0",
    .summary = "a descriptor from make_descriptor",
    .params = kThreeParams,
    .machine_params = kOneParam,
    .create = &no_object,
});
constexpr PluginDescriptor kBare = make_descriptor({
    .kind = PluginKind::memory,
    .name = "bare",
    .version = "0.1.0",
    .summary = "no parameters",
    .create = &create_default<PluginObject>,
});
}  // namespace

TEST_CASE("make_descriptor fills the header and the table lengths", "[core]") {
  CHECK(kBuilt.abi_version == kAbiVersion);
  CHECK(kBuilt.descriptor_size == sizeof(PluginDescriptor));
  CHECK(kBuilt.kind == PluginKind::search);
  CHECK(kBuilt.kind_version == kSearchInterfaceVersion);
  CHECK(std::string(kBuilt.name) == "built");
  CHECK(std::string(kBuilt.version) == "2.1.0");
  CHECK(std::string(kBuilt.framework_version) == kFrameworkVersion);
  CHECK(kBuilt.params == kThreeParams);
  CHECK(kBuilt.param_count == 3);
  CHECK(kBuilt.machine_params == kOneParam);
  CHECK(kBuilt.machine_param_count == 1);
  CHECK(kBuilt.create == &no_object);
  CHECK(kBare.kind_version == kMemoryInterfaceVersion);
  CHECK(kBare.params == nullptr);
  CHECK(kBare.param_count == 0);
  CHECK(kBare.machine_params == nullptr);
  CHECK(kBare.machine_param_count == 0);
  const ParamSet none;
  PluginObject* object = kBare.create(none);
  CHECK(object != nullptr);
  delete object;
}
