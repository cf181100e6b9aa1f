// Sweep and report sizes bounded while the scenario is read (docs/limits.md "Work"): repeats
// found by sorting and reported in list order, list.values, grid.points, hardware.points,
// report.top - each an InputErrors naming the limit.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <string>
#include <vector>

#include "scenario/scenario_loader.hpp"
#include "tessera/error.hpp"
#include "tessera/limits.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_sweep_limits {

using namespace tessera;

namespace {

std::vector<std::string> errors_of(std::vector<std::string> set, const Limits& limits = Limits{}) {
  LoadOptions o;
  o.data_root = std::string(TESSERA_TEST_DIR) + "/fixtures/data";
  o.set = std::move(set);
  const Limits saved = current_limits();
  set_limits(limits);
  std::vector<std::string> out;
  try {
    load_scenario(std::string(TESSERA_TEST_DIR) + "/fixtures/inline.yaml", o);
  } catch (const InputErrors& e) {
    // Values from --set carry " (given with --set)" (the loader's note).
    for (const auto& d : e.diagnostics()) out.push_back(d.message);
  }
  set_limits(saved);
  return out;
}

}  // namespace

TEST_CASE("repeats in a sweep list: each later occurrence - in list order", "[scenario][limits]") {
  const auto e = errors_of({"sweep.parallelism.tp=[1, 2, 1, 3, 2, 1]"});
  REQUIRE(e.size() == 3);
  CHECK(e[0] == "sweep.parallelism.tp: the value 1 is listed twice (given with --set)");
  CHECK(e[1] == "sweep.parallelism.tp: the value 2 is listed twice (given with --set)");
  CHECK(e[2] == "sweep.parallelism.tp: the value 1 is listed twice (given with --set)");
  CHECK(errors_of({"sweep.parallelism.tp=[3, 2, 1]"}).empty());
}

TEST_CASE("list.values - grid.points - hardware.points - report.top", "[scenario][limits]") {
  Limits l;
  l.list_values = 3;
  auto e = errors_of({"sweep.parallelism.tp=[1, 2, 3, 4]"}, l);
  REQUIRE(e.size() == 1);
  CHECK(
      e[0] ==
      "sweep.parallelism.tp: a list of 4 values (given with --set) exceeds the limit list.values (3); raise "
      "it with --limit list.values=N");

  l = Limits{};
  l.grid_points = 100;
  CHECK(errors_of({"sweep.parallelism.cp=[1, 2]"}, l).empty());  // 2 x 48 default discrete points
  e = errors_of({"sweep.parallelism.cp=[1, 2, 3]"}, l);
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("sweep.parallelism: a parallelism grid of 144 points (given with --set) exceeds the limit "
                  "grid.points "
                  "(100)") == 0);

  l = Limits{};
  l.hardware_points = 3;
  e = errors_of(
      {"sweep.hardware={machine.pe.hbm.bandwidth: [1 TB/s, 2 TB/s], machine.pe.hbm.capacity: [1 GB, 2 GB]}"},
      l);
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("sweep.hardware: a hardware grid of 4 points (given with --set) exceeds the limit "
                  "hardware.points (3)") == 0);

  e = errors_of({"report.top=100001"});
  REQUIRE(e.size() == 1);
  CHECK(e[0] ==
        "report.top: 100001 (given with --set) exceeds the limit report.top (100000); raise it with "
        "--limit report.top=N");
  CHECK(errors_of({"report.top=100000"}).empty());
}

}  // namespace test_sweep_limits
