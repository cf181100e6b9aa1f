// latency/sram_tier: the tier's formula (docs/physics.md §7.3), its machine block read through a
// session, machine-block parameters by dotted path (--set, sweep.hardware), its memory tier.
#include <catch2/catch.hpp>

#include <string>

#include "scenario/sweeps/hardware_points.hpp"
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

TEST_CASE("sram_tier: the bytes served from SRAM are counted in its tier - a split in the blended tier",
          "[sram_tier]") {
  CHECK(std::string(plugins::served_from(1)) == "sram");
  CHECK(std::string(plugins::served_from(0.3)) == "sram+hbm");
  CHECK(std::string(plugins::served_from(0)) == "hbm");
  const ParallelConfig c{.cp = 1, .tp = 1, .pp = 1, .dp = 1, .ep = 1};
  double hbm_only = 0;  // the step's bytes, all from HBM without a tier
  for (const char* cap : {"0 B", "230 MB", "40 GB"}) {
    INFO(cap);
    const Scenario sc = load(kScenario, {std::string("machine.plugins.sram_tier.sram_capacity=") + cap});
    const Session s(sc, registry());
    Evaluation e;
    s.evaluator().evaluate(c, e);
    REQUIRE(e.valid);
    double streamed = 0;
    for (const Stage& st : e.stages) streamed += st.hbm_bytes * st.count;
    const double f = plugins::sram_fraction({s.machine().efficiency.real("sram_capacity"), 80e12}, streamed);
    if (std::string(cap) == "0 B") {
      CHECK(e.totals.tier_count == 1);  // HBM only: the roofline model's accounting
      CHECK(e.totals.bw_util > 0);
      hbm_only = e.totals.hbm_bytes_all_pes;
      continue;
    }
    REQUIRE(e.totals.tier_count == 2);
    const TierUse& u = e.totals.tiers[1];
    CHECK(std::string(u.name) == (f < 1 ? "sram+hbm" : "sram"));
    CHECK(u.bandwidth == Approx(plugins::tiered_bandwidth(f, 80e12, 1e12)));
    CHECK(e.totals.hbm_bytes_all_pes == 0);  // every stage's bytes named the tier
    CHECK(e.totals.bw_util == 0);
    CHECK(u.bytes_all_pes == Approx(hbm_only));  // the same bytes, counted in the tier
    CHECK(u.util == Approx(u.bytes_all_pes / (u.bandwidth * e.totals.pes * e.totals.latency_s)));
    CHECK(u.util <= 1.0);
  }
}
