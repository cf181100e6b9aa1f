// latency/sram_tier: the tier's formula (docs/physics.md §7.3), its machine block read through a
// session, and machine-block parameters by dotted path (--set, sweep.hardware).
#include <catch2/catch.hpp>

#include <string>

#include "scenario/hardware_points.hpp"
#include "search_fixture.hpp"
#include "sram_tier.hpp"

using namespace tessera;
using tessera::test::choice;
using tessera::test::load;
using tessera::test::registry;
using tessera::test::search;

namespace {

const char* kScenario = "llama3.1-8b-sram-capacity-explore.yaml";

double best_latency(const Scenario& sc) {
  const Session s(sc, registry());
  const SearchResult r = search(s, choice("exhaustive"));
  REQUIRE(r.best);
  return r.records[*r.best].latency_s;
}

std::string load_error(std::vector<std::string> set) {
  try {
    const Scenario sc = load(kScenario, std::move(set));
    const Session s(sc, registry());
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("sram_tier: the fraction served from SRAM and the blended bandwidth", "[sram_tier]") {
  const plugins::SramTier tier{230e6, 80e12};
  CHECK(plugins::sram_fraction(tier, 460e6) == Approx(0.5));
  CHECK(plugins::sram_fraction(tier, 100e6) == 1.0);  // all of it fits
  CHECK(plugins::sram_fraction(tier, 0) == 1.0);      // nothing streamed
  CHECK(plugins::sram_fraction({0, 80e12}, 1e9) == 0.0);
  // Half from 80 TB/s, half from 1 TB/s: 1 / (0.5/80e12 + 0.5/1e12) = 1.975 TB/s.
  CHECK(plugins::tiered_bandwidth(0.5, 80e12, 1e12) == Approx(1.0 / (0.5 / 80e12 + 0.5 / 1e12)));
  CHECK(plugins::tiered_bandwidth(0, 80e12, 1e12) == 1e12);
  CHECK(plugins::tiered_bandwidth(1, 80e12, 1e12) == 80e12);
}

TEST_CASE("sram_tier: the machine block is read when the plugin runs - no tier is the roofline model",
          "[sram_tier]") {
  const Scenario sc = load(kScenario);
  REQUIRE(sc.machine_blocks.size() == 1);
  CHECK(sc.machine_blocks[0].plugin == "sram_tier");
  const Session s(sc, registry());
  CHECK(s.machine().efficiency.real("sram_capacity") == 230e6);
  CHECK(s.machine().efficiency.real("sram_bandwidth") == 80e12);

  // --set on the dotted path, the unit checked against the plugin's schema.
  const Scenario none = load(kScenario, {"machine.plugins.sram_tier.sram_capacity=0 B"});
  const Scenario roof = load(kScenario, {"plugins.latency=roofline"});
  CHECK(best_latency(none) == best_latency(roof));
  CHECK(best_latency(sc) < best_latency(none));
  CHECK(load_error({"machine.plugins.sram_tier.sram_capacity=3 us"}) ==
        "<command line>: error: machine.plugins.sram_tier (read by latency/sram_tier): parameter "
        "'sram_capacity': expected a byte size ≥ 0 B, found '3 us' (expected a byte size with a unit (B, "
        "e.g. \"141 GB\", \"80 GiB\", \"512 MB\"), found \"3 us\", a time)");
  // A block is read only by its plugin: a misspelled parameter of sram_tier's block does not stop
  // roofline, which reads no block.
  CHECK(
      load_error({"machine.plugins.sram_tier.sram_capacty=1 GB"}).find("unknown parameter 'sram_capacty'") !=
      std::string::npos);
  CHECK(load_error({"machine.plugins.sram_tier.sram_capacty=1 GB", "plugins.latency=roofline"}).empty());
}

TEST_CASE("sram_tier: sweep.hardware types a machine-block axis by the plugin's schema", "[sram_tier]") {
  const Scenario sc = load(kScenario);
  REQUIRE(sc.sweep.hardware.size() == 1);
  const HardwareAxis& raw = sc.sweep.hardware[0];
  CHECK(raw.plugin == "sram_tier");
  CHECK(raw.param == "sram_capacity");
  CHECK(raw.texts == std::vector<std::string>{"0 B", "230 MB", "1 GB", "4 GB"});
  const Session s(sc, registry());
  const HardwareAxis& axis = s.scenario().sweep.hardware[0];
  CHECK(axis.values == std::vector<double>{0, 230e6, 1e9, 4e9});
  CHECK(axis.dimension == Dimension::bytes);
  // Point 2 sets the running plugin's block; another plugin's block is left alone.
  const HardwarePoint p = hardware_point(s.scenario().sweep, s.machine(), 2, "sram_tier");
  CHECK(p.machine.efficiency.real("sram_capacity") == 1e9);
  CHECK(hardware_point(s.scenario().sweep, s.machine(), 2, "roofline")
            .machine.efficiency.real("sram_capacity") == 230e6);

  const std::string e = load_error({"sweep.hardware.machine.plugins.sram_tier.sram_capacity=[1 GB]",
                                    "sweep.hardware.machine.plugins.sram_tier.sram_bandwith=[1 TB/s]"});
  CHECK(e.find("sweep.hardware.machine.plugins.sram_tier.sram_bandwith: latency/sram_tier has no machine "
               "parameter 'sram_bandwith' (did you mean 'sram_bandwidth'?)") != std::string::npos);
}

TEST_CASE("sram_tier: a plugin parameter is refused as a hardware axis with the machine-block path",
          "[sram_tier]") {
  const std::string e = load_error({"sweep.hardware.plugins.latency.sram_tier.sram_capacity=[1 GB]"});
  CHECK(
      e ==
      "<command line>: error: sweep.hardware.plugins.latency.sram_tier.sram_capacity: a plugin parameter is "
      "not a hardware axis (the plugin is created once per study); a hardware model's own parameters belong "
      "in its machine block and are swept as machine.plugins.<plugin>.<param> (given with --set)");
}
