// Roles a plugin declares beside its kind (docs/plugin-guide.md "Roles", host/plugin_roles.hpp):
// the shipped plugins' declarations as the host reads them, machine blocks found by name, by a
// declared key or through a fallback, a block given twice refused, and descriptors whose roles
// are wrong refused at load with the reason.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "eval/session.hpp"
#include "host/plugin_registry.hpp"
#include "host/plugin_roles.hpp"
#include "scenario/scenario_loader.hpp"
#include "tessera_build_paths.hpp"

namespace test_plugin_roles {

using namespace tessera;

namespace {

PluginRegistry& shipped() {
  static PluginRegistry r;
  return r;
}

const PluginDescriptor& descriptor(const char* name) {
  const LoadedPlugin* p = shipped().find(PluginKind::latency, name);
  REQUIRE(p);
  return *p->descriptor;
}

MachineBlock block(const std::string& plugin, const std::string& key) {
  MachineBlock b;
  b.plugin = plugin;
  b.key = key;
  b.label = key.empty() ? "machine.plugins." + plugin : "machine '" + key + "'";
  return b;
}

PluginObject* no_object(const ParamSet&) { return nullptr; }
PluginObject* no_fallback_object(const ParamSet&, std::shared_ptr<const LatencyModel>) { return nullptr; }

const ParamSpec kMachine[] = {
    {"gemm_efficiency", ParamType::real, Dimension::none, "0.8", 0, 1, nullptr, 0, "x"}};

}  // namespace

TEST_CASE("roles: the shipped latency plugins declare what the host reads of them") {
  const PluginDescriptor& cal = descriptor("calibrated");
  CHECK(std::string(cal.machine_block_key) == "efficiency");
  CHECK((cal.roles & kRoleErrorBand) != 0);
  CHECK((cal.roles & kRoleBandScored) != 0);
  CHECK(cal.fit_count == 10);
  CHECK(cal.fallback == nullptr);
  const PluginDescriptor& mea = descriptor("measured");
  CHECK(std::string(mea.fallback) == "calibrated");
  CHECK(mea.create_with_fallback != nullptr);
  CHECK(mea.machine_param_count == 0);
  CHECK((mea.roles & kRoleKernelTables) != 0);
  CHECK((mea.roles & kRoleBandScored) == 0);
  // What the host derives from them.
  CHECK(fallback_of(shipped(), "measured") == "calibrated");
  CHECK(fallback_of(shipped(), "roofline").empty());
  CHECK(machine_schema_owner(shipped(), "measured") == "calibrated");
  CHECK(machine_schema_owner(shipped(), "roofline") == "roofline");
  CHECK(machine_block_spelling(shipped(), "measured") == "efficiency");
  CHECK(machine_block_spelling(shipped(), "sram_tier") == "plugins.sram_tier");
  CHECK(has_role(shipped(), "measured", kRoleErrorBand));
  CHECK_FALSE(has_role(shipped(), "overlap", kRoleErrorBand));
  CHECK_FALSE(has_role(shipped(), "no_such_plugin", kRoleErrorBand));
}

TEST_CASE("roles: a machine block is found by name or by the declared key or through the fallback") {
  const std::vector<MachineBlock> keyed = {block("", "efficiency"), block("sram_tier", "")};
  CHECK(machine_block_for(shipped(), keyed, "calibrated") == &keyed[0]);
  CHECK(machine_block_for(shipped(), keyed, "measured") == &keyed[0]);  // its fallback's
  CHECK(machine_block_for(shipped(), keyed, "sram_tier") == &keyed[1]);
  CHECK(machine_block_for(shipped(), keyed, "roofline") == nullptr);
  // Its own block first.
  const std::vector<MachineBlock> own = {block("", "efficiency"), block("measured", "")};
  CHECK(machine_block_for(shipped(), own, "measured") == &own[1]);
  const std::vector<MachineBlock> named = {block("calibrated", "")};
  CHECK(machine_block_for(shipped(), named, "measured") == &named[0]);
}

TEST_CASE("roles: a block given under its name and its declared key is refused") {
  std::vector<MachineBlock> both = {block("", "efficiency"), block("calibrated", "")};
  std::vector<Diagnostic> d;
  check_block_aliases(shipped(), both, d);
  REQUIRE(d.size() == 1);
  CHECK(d[0].message ==
        "machine.plugins.calibrated: latency/calibrated's block is given twice (here and as `efficiency:`); "
        "keep one");
  d.clear();
  check_block_aliases(shipped(), {block("calibrated", "")}, d);
  CHECK(d.empty());
  // Whoever reads it (calibrated, or measured through its fallback) is refused too: a pool machine
  // or a validate-data machine file never silently drops one of the two.
  CHECK_THROWS_AS(machine_block_for(shipped(), both, "calibrated"), InputErrors);
  CHECK_THROWS_AS(machine_block_for(shipped(), both, "measured"), InputErrors);
  CHECK(machine_block_for(shipped(), both, "roofline") == nullptr);
}

TEST_CASE("roles: descriptors whose roles are wrong are named") {
  PluginInfo good{
      .kind = PluginKind::latency, .name = "x", .version = "1", .summary = "s", .create = &no_object};
  CHECK(role_problems(make_descriptor(good)).empty());

  PluginInfo memory = good;
  memory.kind = PluginKind::memory;
  memory.roles = kRoleErrorBand;
  CHECK(role_problems(make_descriptor(memory)) == "only latency plugins declare roles");

  PluginInfo bits = good;
  bits.roles = 1u << 9;
  CHECK(role_problems(make_descriptor(bits)) == "unknown role bits in roles");

  PluginInfo half = good;
  half.fallback = "calibrated";
  CHECK(role_problems(make_descriptor(half)) ==
        "a fallback without create_with_fallback (the factory that takes it)");
  PluginInfo other_half = good;
  other_half.create_with_fallback = &no_fallback_object;
  CHECK(role_problems(make_descriptor(other_half)) == "create_with_fallback without a fallback");
  PluginInfo self = good;
  self.fallback = "x";
  self.create_with_fallback = &no_fallback_object;
  CHECK(role_problems(make_descriptor(self)) == "it falls back on itself");

  PluginInfo key = good;
  key.machine_block_key = "pe";
  CHECK(role_problems(make_descriptor(key)) ==
        "machine_block_key 'pe' is no machine-file key for a block (known: efficiency)");

  static const FitSpec kFits[] = {
      {"gemm_efficiency", FitOwner::machine_block, FitScale::logit, 0.4, 0.9, 0, false},
      {"hbm", FitOwner::machine_block, FitScale::logit, 0.4, 0.9, 0, false},
      {"gemm_efficiency", FitOwner::machine_block, FitScale::logit, 0.9, 0.4, 0, false}};
  PluginInfo fit = good;
  fit.machine_params = kMachine;
  fit.fit = kFits;
  CHECK(role_problems(make_descriptor(fit)) ==
        "fit[1] 'hbm': not one of its machine parameters; fit[2] 'gemm_efficiency': the range is empty (lo "
        ">= hi)");
}

}  // namespace test_plugin_roles

namespace test_plugin_roles {

using namespace tessera;

namespace {

// The latency of configuration `config` of the shipped measured scenario with the latency model
// `latency` (its parameters as written).
double measured_latency(const PluginChoice& latency, const char* config) {
  LoadOptions o;
  Scenario sc = load_scenario(
      std::string(TESSERA_SOURCE_DIR) + "/scenarios/llama3.1-8b-decode-2k-h200-measured.yaml", o);
  sc.plugins.latency = {latency};
  const Session s(sc, shipped());
  Evaluation e;
  s.evaluator().evaluate(parse_config(config, s.machine()), e);
  REQUIRE(e.feasible);
  return e.totals.latency_s;
}

}  // namespace

TEST_CASE("roles: a fallback gets the parameters both declare at this plugin's values and defaults") {
  // measured's `framework` defaults to generic (calibrated's to modern-stack): measured without a
  // framework falls back on calibrated's generic profile, exactly as with `framework: generic`.
  PluginChoice bare;
  bare.name = "measured";
  PluginChoice generic = bare;
  generic.params.push_back(RawParam{"framework", "generic", {}, false, {}});
  PluginChoice modern = bare;
  modern.params.push_back(RawParam{"framework", "modern-stack", {}, false, {}});
  const double b = measured_latency(bare, "tp=2");
  CHECK(b == measured_latency(generic, "tp=2"));
  CHECK(b != measured_latency(modern, "tp=2"));
}

}  // namespace test_plugin_roles
