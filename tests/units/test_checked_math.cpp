// Overflow-safe products (core/checked_math.hpp) and the counts that use them: total PEs and
// the PE count of a configuration never wrap.
#include <catch2/catch.hpp>

#include <cstdint>

#include "core/checked_math.hpp"
#include "tessera/machine.hpp"
#include "tessera/parallel_config.hpp"

using namespace tessera;

TEST_CASE("checked_mul and checked_product refuse what leaves int64", "[core][checked]") {
  CHECK(checked_mul(3'037'000'499, 3'037'000'499) == std::int64_t{9'223'372'030'926'249'001});
  CHECK_FALSE(checked_mul(3'037'000'500, 3'037'000'500).has_value());  // 9.223372037e18 > 2^63 - 1
  CHECK(checked_mul(-4, 5) == -20);
  CHECK(checked_add(INT64_MAX - 1, 1) == INT64_MAX);
  CHECK_FALSE(checked_add(INT64_MAX, 1).has_value());
  // 4e9^3 = 6.4e28: wraps to -1261475310744950487... without the check.
  CHECK_FALSE(checked_product({4'000'000'000, 4'000'000'000, 4'000'000'000}).has_value());
  CHECK(checked_product({1024, 1024, 1024}) == std::int64_t{1} << 30);
  CHECK(checked_product({}) == 1);
  CHECK(checked_product({0, INT64_MAX, INT64_MAX}) == 0);
  // The ceiling applies to every partial product: 2^53 exact in a double.
  CHECK(checked_product({std::int64_t{1} << 26, std::int64_t{1} << 27}, kExactDoubleMax) == kExactDoubleMax);
  CHECK_FALSE(
      checked_product({std::int64_t{1} << 26, (std::int64_t{1} << 27) + 1}, kExactDoubleMax).has_value());
  // Grid sizes: five lists of 10^5 values are 10^25 points, past uint64.
  CHECK_FALSE(checked_size_product({100000, 100000, 100000, 100000, 100000}).has_value());
  CHECK(checked_size_product({3, 5, 3, 2, 1}) == 90u);
  CHECK_FALSE(checked_size_product({1000, 1000, 1001}, 1'000'000'000).has_value());
  CHECK(saturating_mul(std::int64_t{1} << 62, 2) == INT64_MAX);
  CHECK(saturating_mul(6, 7) == 42);
}

TEST_CASE("total PEs and a configuration's PEs saturate instead of wrapping", "[core][checked]") {
  MachineSpec m;
  m.levels = {{"a", 4'000'000'000, 1e9, 1e-6, LinkTopology::switched, 0},
              {"b", 4'000'000'000, 1e9, 1e-6, LinkTopology::switched, 0},
              {"c", 4'000'000'000, 1e9, 1e-6, LinkTopology::switched, 0}};
  CHECK(m.total_pes() == INT64_MAX);
  CHECK(m.pes_per_unit(1) == 4'000'000'000);
  CHECK(m.pes_per_unit(3) == INT64_MAX);
  ParallelConfig c;
  c.cp = c.tp = c.pp = c.dp = 1'000'000;  // 10^24 PEs
  CHECK(c.pes() == INT64_MAX);
  c.cp = 2, c.tp = 8, c.pp = 4, c.dp = 3;
  CHECK(c.pes() == 192);
}
