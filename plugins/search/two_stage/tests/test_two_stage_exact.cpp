// two_stage against exhaustive on every shipped scenario (the scenarios directory is listed at
// test time, so a new scenario is covered without editing this file) and on every point of
// every sweep.hardware grid (what `tessera explore` searches): the best configuration must be
// the same, or tie with exhaustive's within 1e-9 relative in the primary objective. The scores
// are computed live: nothing here pins a number of the time model.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>

#include "scenario/sweeps/hardware_points.hpp"
#include "scenario/sweeps/sweep_size.hpp"
#include "search_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

struct Totals {
  std::uint64_t valid = 0, evaluated = 0;
};

// One search space: exhaustive and two_stage on the same session.
void compare_at(const std::string& where, const Session& s, const MachineSpec& m, Totals& t) {
  const SearchResult ex = search(s, choice("exhaustive"), 2, false);
  const SearchResult ts = search(s, choice("two_stage"), 2, false);
  INFO(where << ": valid " << ex.counts.valid << ", two_stage evaluated " << ts.counts.evaluated);
  REQUIRE(ex.counts.evaluated == ex.counts.valid);
  CHECK(ts.counts.evaluated <= ex.counts.valid);
  t.valid += ex.counts.valid;
  t.evaluated += ts.counts.evaluated;
  CHECK(ex.best.has_value() == ts.best.has_value());
  if (!ex.best || !ts.best) return;
  const ConfigRecord& e = ex.records[*ex.best];
  const ConfigRecord& g = ts.records[*ts.best];
  const bool same = e.config == g.config;
  const double gap = (g.score - e.score) / std::max(std::fabs(e.score), 1e-300);
  INFO("exhaustive " << format_config(e.config, m) << " score " << e.score << "\ntwo_stage  "
                     << format_config(g.config, m) << " score " << g.score << " (gap " << 100 * gap << " %)");
  CHECK((same || std::fabs(gap) <= 1e-9));
}

}  // namespace

TEST_CASE("two_stage finds the exhaustive optimum - every scenario and every hardware point",
          "[search][two_stage]") {
  const std::vector<std::string> files = scenario_files();
  REQUIRE(!files.empty());
  for (const std::string& file : files) {
    // Every shipped scenario must load: a scenario that does not is a failure, not a skip.
    Scenario sc;
    REQUIRE_NOTHROW(sc = load(file));
    if (sc.workload.mode == Mode::serve) continue;  // `tessera serve`'s study: tests/serve
    Session base(sc, registry());
    const std::uint64_t points = sweep_hardware_points(sc.sweep);
    REQUIRE(points >= 1);
    Totals t;
    if (sc.sweep.hardware.empty()) {
      compare_at(file, base, sc.machine, t);
    } else {
      for (std::uint64_t i = 0; i < points; ++i) {
        const auto s = base.with_machine(hardware_point(sc.sweep, base.machine(), i).machine);
        compare_at(file + " hardware point " + std::to_string(i + 1) + "/" + std::to_string(points), *s,
                   sc.machine, t);
      }
    }
    std::cout << file << ": " << points << " point(s), two_stage evaluated " << t.evaluated << " of "
              << t.valid << " valid ("
              << 100.0 * double(t.evaluated) / double(std::max<std::uint64_t>(1, t.valid)) << " %)\n";
  }
}

// Not part of the ctest run (hidden tag): the same comparison under every latency model and
// perturbed workloads and machines, for landscapes the shipped scenarios do not have. Run it
// with `build/bin/test_search "[.robustness]"` after a change to the search or the time model.
TEST_CASE("two_stage finds the exhaustive optimum - perturbed scenarios", "[.robustness]") {
  for (const char* latency : {"roofline", "overlap", "calibrated"})
    for (const char* extra :
         {"", "workload.batch=1", "workload.batch=64", "workload.context=8K", "workload.context=128K",
          "machine.pe.hbm.bandwidth=2 TB/s", "machine.pe.flops.bf16=500 TFLOP/s"}) {
      Totals t;
      for (const std::string& file : scenario_files()) {
        std::vector<std::string> set{std::string("plugins.latency=") + latency};
        if (*extra) set.emplace_back(extra);
        Scenario sc;
        REQUIRE_NOTHROW(sc = load(file, set));
        Session base(sc, registry());
        for (std::uint64_t i = 0; i < sweep_hardware_points(sc.sweep); ++i)
          compare_at(file + " " + latency + " " + extra,
                     *base.with_machine(hardware_point(sc.sweep, base.machine(), i).machine), sc.machine, t);
      }
      std::cout << latency << " " << extra << ": two_stage evaluated " << t.evaluated << " of " << t.valid
                << "\n";
    }
}
