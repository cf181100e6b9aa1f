// GridSpace: counts, canonical forms, defaults, stable order.
#include <catch2/catch.hpp>

#include <set>

#include "eval/grid_space.hpp"
#include "search_fixture.hpp"
#include "tessera/physics/layout.hpp"

using namespace tessera;
using namespace tessera::test;

TEST_CASE("GridSpace enumerates the sweep's valid canonical configs once - in a stable order", "[grid]") {
  const Scenario sc = load("llama3.1-70b-decode-128k.yaml");
  const GridSpace g(sc.sweep, sc.model, sc.machine, sc.workload);
  CHECK(g.enumerated() == 8u * 6 * 5 * 3 * 2 * 3 * 2 * 2 * 2);
  CHECK(g.values_cp() == std::vector<std::int32_t>{1, 2, 4, 8, 16, 32, 64, 96});
  CHECK(g.values_ep() == std::vector<std::int32_t>{1});
  const ParallelConfig d = g.defaults();
  CHECK(d.cp == 1);
  CHECK(d.kv_shard_mode == KvShardMode::split);
  std::set<std::string> seen;
  Layout layout;
  for (std::size_t i = 0; i < g.valid_configs().size(); ++i) {
    const ParallelConfig& c = g.valid_configs()[i];
    CHECK(is_canonical(sc.model, c));
    compute_layout(sc.model, sc.machine, sc.workload, c, layout);
    CHECK(layout.valid);
    CHECK(g.is_valid_canonical(c));
    CHECK(g.index_of(c) == static_cast<std::int64_t>(i));
    CHECK(seen.insert(format_config(c, sc.machine)).second);
  }
  // Every valid grid point's canonical form is listed.
  ParallelConfig c;
  c.cp = 1;
  c.tp = 8;
  c.kv_shard_mode = KvShardMode::replicate;  // r = 1: canonical is split
  c.cp_ring_variant = CpRingVariant::qoml;
  CHECK_FALSE(g.is_valid_canonical(c));
  CHECK(g.is_valid_canonical(g.canonicalize(c)));
  // Same inputs, same list.
  const GridSpace g2(sc.sweep, sc.model, sc.machine, sc.workload);
  CHECK(g2.valid_configs() == g.valid_configs());
}
