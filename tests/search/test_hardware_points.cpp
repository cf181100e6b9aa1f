// The points of a scenario's sweep.hardware grid (scenario/sweeps/hardware_points.hpp): what
// `tessera explore` walks and the search tests compare searches on.
#include <catch2/catch.hpp>

#include <vector>

#include "scenario/sweeps/hardware_points.hpp"
#include "scenario/sweeps/sweep_size.hpp"
#include "search_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

TEST_CASE("hardware_point: the product of the axes - first axis fastest - and one point without axes",
          "[search][explore]") {
  const Scenario sc = load("llama3.1-70b-hbm-vs-links-explore.yaml");
  // 4 HBM bandwidths x 3 cube link bandwidths x 3 bf16 peaks = 36 points.
  REQUIRE(sweep_hardware_points(sc.sweep) == 36);
  CHECK(hardware_point(sc.sweep, sc.machine, 0).machine.pe.hbm_bandwidth == Approx(0.5e12));
  CHECK(hardware_point(sc.sweep, sc.machine, 1).machine.pe.hbm_bandwidth == Approx(1e12));
  // i = 4 = 0 + 4 * 1: the first HBM value, the second link value.
  const HardwarePoint p4 = hardware_point(sc.sweep, sc.machine, 4);
  CHECK(p4.machine.pe.hbm_bandwidth == Approx(0.5e12));
  CHECK(p4.machine.levels[0].link_bw == Approx(400e9));
  CHECK(hardware_point(sc.sweep, sc.machine, 35).values == std::vector<double>{4e12, 800e9, 256e12});
  const Scenario plain = load("llama3.1-70b-decode-128k.yaml");
  REQUIRE(sweep_hardware_points(plain.sweep) == 1);
  const HardwarePoint one = hardware_point(plain.sweep, plain.machine, 0);
  CHECK(one.values.empty());
  CHECK(one.machine.pe.hbm_bandwidth == plain.machine.pe.hbm_bandwidth);
}
