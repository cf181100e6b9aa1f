// A level's collectives constants as numeric machine fields: `sweep.hardware`, sensitivity
// (set/get_machine_field) and `--set`/overrides (the YAML tree) reach the same values, with
// the machine schema's ranges (docs/scenario-format.md "Collectives").
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include "scenario/scenario_loader.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_collectives_fields {

using namespace tessera;

namespace {
std::string fixture(const std::string& name) { return std::string(TESSERA_TEST_DIR) + "/fixtures/" + name; }

Scenario load_with(std::vector<std::string> set) {
  LoadOptions o;
  o.data_root = fixture("data");
  o.set = std::move(set);
  return load_scenario(fixture("by-path.yaml"), o);
}

std::string first_error(std::vector<std::string> set) {
  try {
    load_with(std::move(set));
  } catch (const InputErrors& e) {
    return e.diagnostics().empty() ? "" : e.diagnostics()[0].format();
  }
  return "";
}
}  // namespace

TEST_CASE("collectives constants by dotted path - set and get", "[scenario][collectives]") {
  MachineSpec m = load_machine_file(fixture("data/machines/tiny-cube.yaml"));
  CHECK(machine_field_dimension("machine.levels.x.collectives.one_shot.base") == Dimension::time);
  CHECK(machine_field_dimension("machine.levels.x.collectives.ring.ll128.hop") == Dimension::time);
  CHECK(machine_field_dimension("machine.levels.x.collectives.tree.simple.bw_factor") == Dimension::none);
  CHECK(machine_field_dimension("machine.levels.x.collectives.link_efficiency") == Dimension::none);

  set_machine_field(m, "machine.levels.cube.collectives.one_shot.base", 7e-6);
  CHECK(m.levels[0].collectives.one_shot.base == 7e-6);
  set_machine_field(m, "machine.levels.sip.collectives.ring.ll128.hop", 2e-6);
  CHECK(m.levels[1].collectives.ring[1].hop == 2e-6);
  set_machine_field(m, "machine.levels.sip.collectives.tree.simple.bw_factor", 0.5);
  CHECK(m.levels[1].collectives.tree[2].bw_factor == 0.5);
  set_machine_field(m, "machine.levels.cube.collectives.in_network.hop", 1e-6);
  CHECK(m.levels[0].collectives.in_network_cost.hop == 1e-6);
  set_machine_field(m, "machine.levels.cube.collectives.direct.bw_factor", 0.25);
  CHECK(get_machine_field(m, "machine.levels.cube.collectives.direct.bw_factor") == 0.25);
  set_machine_field(m, "machine.levels.cube.collectives.link_efficiency", 0.7);
  CHECK(m.levels[0].collectives.link_efficiency == 0.7);

  CHECK_THROWS_WITH(machine_field_dimension("machine.levels.x.collectives.one_shoot.base"),
                    Catch::Contains("did you mean 'one_shot'"));
  CHECK_THROWS_WITH(machine_field_dimension("machine.levels.x.collectives.ring.ll12.hop"),
                    Catch::Contains("did you mean 'll128'"));
  CHECK_THROWS_WITH(machine_field_dimension("machine.levels.x.collectives.ring.base"),
                    Catch::Contains("<ll|ll128|simple>.<base|hop|bw_factor>"));
  CHECK_THROWS_WITH(machine_field_dimension("machine.levels.x.collectives.two_shot.bw"),
                    Catch::Contains("did you mean 'bw_factor'"));
  CHECK_THROWS_AS(machine_field_dimension("machine.levels.x.collectives.fabric"), InputError);
}

TEST_CASE("collectives constants in sweep.hardware and --set - ranges as the schema",
          "[scenario][collectives]") {
  // sweep.hardware: the axis values are parsed with the field's dimension and range.
  const Scenario s =
      load_with({"sweep.hardware={machine.levels.cube.collectives.one_shot.base: [0 us, 5 us], "
                 "machine.levels.cube.collectives.ring.ll.bw_factor: [0, 0.5, 1]}"});
  REQUIRE(s.sweep.hardware.size() == 2);
  CHECK(s.sweep.hardware[0].dimension == Dimension::time);
  REQUIRE(s.sweep.hardware[0].values.size() == 2);
  CHECK(s.sweep.hardware[0].values[0] == 0);
  CHECK(s.sweep.hardware[0].values[1] == Approx(5e-6));
  CHECK(s.sweep.hardware[1].values == std::vector<double>{0, 0.5, 1});
  CHECK_THAT(first_error({"sweep.hardware={machine.levels.cube.collectives.ring.ll.bw_factor: [1.5]}"}),
             Catch::Contains("bw_factor: expected a number in [0, 1] (achieved fraction of the bandwidth the "
                             "topology gives the pattern; 0 = not available), found 1.5"));
  CHECK_THAT(first_error({"sweep.hardware={machine.levels.cube.collectives.link_efficiency: [0]}"}),
             Catch::Contains(
                 "expected a number in (0, 1] (achievable fraction of link_bw for bulk copies), found 0"));

  // --set edits the YAML tree; the machine schema checks it.
  const Scenario t = load_with({"machine.levels.cube.collectives.ring.ll.hop=2 us",
                                "machine.levels.cube.collectives.link_efficiency=0.6"});
  CHECK(t.machine.levels[0].collectives.ring[0].hop == Approx(2e-6));
  CHECK(t.machine.levels[0].collectives.link_efficiency == 0.6);
  CHECK(t.machine.levels[0].collectives.described);
  CHECK_THAT(
      first_error({"machine.levels.cube.collectives.one_shot.bw_factor=2"}),
      Catch::Contains(
          "collectives.one_shot.bw_factor: expected a number in [0, 1] (achieved fraction of the bandwidth"));
  CHECK_THAT(first_error({"machine.levels.cube.collectives.link_efficiency=1.2"}),
             Catch::Contains("expected a number in (0, 1] (achievable fraction of link_bw"));
  CHECK_THAT(first_error({"machine.levels.cube.collectives.tree.ll128.hopp=1us"}),
             Catch::Contains("did you mean 'machine.levels.cube.collectives.tree.ll128.hop'"));
  // A constant of in-network reduction turns `in_network: true` into its mapping form.
  const Scenario u = load_with({"machine.levels.cube.collectives={in_network: true}",
                                "machine.levels.cube.collectives.in_network.base=9 us"});
  CHECK(u.machine.levels[0].collectives.in_network);
  CHECK(u.machine.levels[0].collectives.in_network_cost.base == Approx(9e-6));
}

}  // namespace test_collectives_fields
