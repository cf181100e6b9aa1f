// latency/measured's table: reading, and log-space multilinear interpolation (hand-computed).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "kernel_table.hpp"
#include "tessera/error.hpp"

using tessera::plugins::KernelTable;
using tessera::plugins::lookup;
using tessera::plugins::parse_kernel_table;

namespace {

// A 2 x 2 grid: m in {1, 100}, nk in {100, 10000}.
const char* kSquare =
    "# a comment line: ignored\n"
    "# machine: TEST-MACHINE\n"
    "# op: gemm\n"
    "# dtype: bf16\n"
    "m,nk,time_us,source\n"
    "1,100,10,row 1\n"
    "1,10000,40,row 2\n"
    "100,100,20,row 3\n"
    "100,10000,160,scripts/measure/measure_tables.py 2026-12-01\n";

double at(const KernelTable& t, double m, double nk) {
  const double q[2] = {m, nk};
  const auto r = lookup(t, q);
  REQUIRE(r.hit);
  return r.seconds * 1e6;
}

}  // namespace

TEST_CASE("kernel table: header keys and axes are read and the grid sorted", "[measured]") {
  const KernelTable t = parse_kernel_table(kSquare, "t.csv", "t");
  CHECK(t.machine == "TEST-MACHINE");
  CHECK(t.op == "gemm");
  CHECK(t.framework == "any");
  REQUIRE(t.axes.size() == 2);
  CHECK(t.grid[0] == std::vector<double>{1, 100});
  CHECK(t.grid[1] == std::vector<double>{100, 10000});
  CHECK(t.hit_tag == "table t");
  CHECK(t.outside_tags[0] == "fallback: calibrated (m outside 1..100 in t)");
  CHECK(tessera::plugins::provenance_row_ids(t) == std::vector<std::string>{"1", "2", "3"});
}

TEST_CASE("kernel table: a grid point returns its entry exactly", "[measured]") {
  const KernelTable t = parse_kernel_table(kSquare, "t.csv", "t");
  CHECK(at(t, 1, 100) == Approx(10).epsilon(1e-12));
  CHECK(at(t, 100, 10000) == Approx(160).epsilon(1e-12));
  CHECK(at(t, 100, 100) == Approx(20).epsilon(1e-12));
}

TEST_CASE("kernel table: between grid values ln t is linear in ln x", "[measured]") {
  const KernelTable t = parse_kernel_table(kSquare, "t.csv", "t");
  // m = 10 is halfway between 1 and 100 in log space: sqrt(10 * 20) = 14.1421 us.
  CHECK(at(t, 10, 100) == Approx(14.142136).epsilon(1e-6));
  // A quarter of the way (m = 100^0.25 = 3.1623): 10^0.75 * 20^0.25 = 11.8921 us.
  CHECK(at(t, std::pow(100.0, 0.25), 100) == Approx(11.892071).epsilon(1e-6));
  // The centre of the square: the geometric mean of the four corners, (10*40*20*160)^(1/4) = 33.6359 us.
  CHECK(at(t, 10, 1000) == Approx(33.635857).epsilon(1e-6));
}

// A grid point slower than a larger shape takes its time (the larger kernel runs the smaller
// problem padded): m = 8 measured at 14 us after m = 32 at 12 us reads 12 us, and everything in
// between is flat; along `ranks` (not a padded axis) nothing changes.
TEST_CASE("kernel table: the interpolated time never falls as a size grows", "[measured]") {
  const KernelTable t = parse_kernel_table(
      "# machine: M\n# op: gemm\n# dtype: bf16\nm,nk,time_us,source\n"
      "1,100,10,row 1\n8,100,14,row 2\n32,100,12,row 3\n64,100,30,row 4\n",
      "g.csv", "g");
  CHECK(at(t, 1, 100) == Approx(10).epsilon(1e-12));
  CHECK(at(t, 8, 100) == Approx(12).epsilon(1e-12));
  CHECK(at(t, 16, 100) == Approx(12).epsilon(1e-12));
  CHECK(at(t, 32, 100) == Approx(12).epsilon(1e-12));
  CHECK(at(t, 64, 100) == Approx(30).epsilon(1e-12));
  double prev = 0;
  for (double m = 1; m <= 64; m *= 1.1) {
    const double x = at(t, m, 100);
    CHECK(x >= prev * (1 - 1e-12));
    prev = x;
  }
  const KernelTable ar = parse_kernel_table(
      "# machine: M\n# op: all_reduce\n# dtype: any\n# level: node\nbytes,ranks,time_us,source\n"
      "1000,4,20,row 5\n1000,8,10,row 6\n",
      "a.csv", "a");
  const double four[2] = {1000, 4};
  CHECK(lookup(ar, four).seconds * 1e6 == Approx(20).epsilon(1e-12));
}

TEST_CASE("kernel table: a value outside the grid is not interpolated and names its axis", "[measured]") {
  const KernelTable t = parse_kernel_table(kSquare, "t.csv", "t");
  const double above[2] = {200, 100};
  CHECK_FALSE(lookup(t, above).hit);
  CHECK(lookup(t, above).outside_axis == 0);
  const double below[2] = {10, 50};
  CHECK(lookup(t, below).outside_axis == 1);
}

TEST_CASE("kernel table: a single-valued axis matches only its value", "[measured]") {
  const KernelTable t = parse_kernel_table(
      "# machine: M\n# op: all_reduce\n# dtype: any\n# level: node\nbytes,ranks,time_us,source\n"
      "1000,8,10,row 5\n100000,8,90,row 6\n",
      "a.csv", "a");
  const double hit[2] = {10000, 8};  // halfway: sqrt(10 * 90) = 30 us
  CHECK(lookup(t, hit).seconds * 1e6 == Approx(30).epsilon(1e-9));
  const double other_group[2] = {10000, 4};
  CHECK(lookup(t, other_group).outside_axis == 1);
}

TEST_CASE("kernel table: an incomplete grid or a bad cell is refused with its file and line", "[measured]") {
  const std::string missing =
      "# machine: M\n# op: gemm\n# dtype: bf16\nm,nk,time_us,source\n1,100,10,row 1\n"
      "1,1000,20,row 2\n10,100,30,row 3\n";
  CHECK_THROWS_WITH(parse_kernel_table(missing, "g.csv", "g"),
                    Catch::Contains("g.csv:7: error: kernel table: 3 entries do not fill the grid of 4"));
  CHECK_THROWS_WITH(
      parse_kernel_table("# machine: M\n# op: gemm\n# dtype: bf16\nm,x,time_us,source\n", "g.csv", "g"),
      Catch::Contains("g.csv:4: error: kernel table: column 'x' is not an axis of gemm"));
  CHECK_THROWS_WITH(
      parse_kernel_table("# machine: M\n# op: gemm\n# dtype: bf16\nm,time_us,source\n0,5,row 1\n", "g.csv",
                         "g"),
      Catch::Contains("g.csv:5: error: kernel table: m '0' is not a positive number"));
  CHECK_THROWS_AS(parse_kernel_table("# op: gemm\n# dtype: bf16\nm,time_us,source\n", "g.csv", "g"),
                  tessera::InputError);
}
