// GridSpace: counts, canonical forms, defaults, stable order.
#include <catch2/catch.hpp>

#include <atomic>
#include <set>
#include <thread>

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

// canonical_class: bit 1 tp > h_kv, 2 tp = 1, 4 cp = 1, 8 dp = 1 (h_kv = 1 for MLA).
TEST_CASE("canonical classes are the facts canonicalize reads", "[grid]") {
  ModelSpec gqa;
  gqa.kv_heads = 8;
  ParallelConfig c;
  c.tp = 16;
  CHECK(canonical_class(gqa, c) == (1u | 4u | 8u));
  c.tp = 8;  // = h_kv: not above it
  c.cp = 2;
  CHECK(canonical_class(gqa, c) == 8u);
  c.tp = 1;
  c.dp = 4;
  CHECK(canonical_class(gqa, c) == 2u);
  ModelSpec mla = gqa;
  mla.has_mla = true;
  c.tp = 2;
  CHECK(canonical_class(mla, c) == 1u);

  // tp = 1, cp = 1, dp = 1 (class 14): the placements and the ring take their fixed values
  // and the FFN scope falls back to TP; the numeric knobs stay.
  ParallelConfig d;
  d.pp = 3;
  d.kv_shard_mode = KvShardMode::replicate;
  d.tp_placement = 2;
  d.cp_placement = 2;
  d.cp_ring_variant = CpRingVariant::qoml;
  d.ffn_shard_scope = FfnShardScope::tp_cp_dp;
  const ParallelConfig k = canonical_form(2u | 4u | 8u, d);
  CHECK(k.pp == 3);
  CHECK(k.kv_shard_mode == KvShardMode::split);
  CHECK(k.tp_placement == 0);
  CHECK(k.cp_placement == 1);
  CHECK(k.cp_ring_variant == CpRingVariant::kv);
  CHECK(k.ffn_shard_scope == FfnShardScope::tp);
  CHECK(canonicalize(gqa, d) == k);  // d is of class 14 for the GQA model
  // cp = 2, dp = 1 (class 2 | 8): TP+CP+DP falls back to TP+CP, the CP knobs are kept.
  d.cp = 2;
  const ParallelConfig k2 = canonical_form(2u | 8u, d);
  CHECK(k2.ffn_shard_scope == FfnShardScope::tp_cp);
  CHECK(k2.cp_placement == 2);
  CHECK(k2.cp_ring_variant == CpRingVariant::qoml);
}

// The paged index (eval/grid_pages.hpp) answers as the resident one: every position, every
// configuration's index, ranges that cross pages, from several threads at once.
TEST_CASE("a paged grid index answers as the resident one", "[grid]") {
  Scenario sc = load("llama3.1-70b-decode-128k.yaml");
  sc.sweep.kv_shard_mode = {KvShardMode::split, KvShardMode::replicate};
  sc.sweep.cp_ring_variant = {CpRingVariant::kv, CpRingVariant::qoml, CpRingVariant::tree};
  sc.sweep.ffn_shard_scope = {FfnShardScope::tp, FfnShardScope::tp_cp, FfnShardScope::tp_cp_dp};
  sc.sweep.tp_placement = {0, 1};
  sc.sweep.cp_placement = {1, 0};
  sc.sweep.cp.clear();
  for (int cp = 1; cp <= 96; ++cp) sc.sweep.cp.push_back(cp);  // 8640 tuples: pages of 910
  const GridSpace resident(sc.sweep, sc.model, sc.machine, sc.workload);
  const GridSpace paged(sc.sweep, sc.model, sc.machine, sc.workload, 0);
  REQUIRE_FALSE(resident.paged());
  REQUIRE(paged.paged());
  REQUIRE(paged.valid_count() == resident.valid_count());
  REQUIRE(paged.enumerated() / kPageGridPoints >= 8);  // several pages
  const std::vector<ParallelConfig>& all = resident.valid_configs();
  CHECK(paged.valid_configs() == all);
  // Ranges of every length from every 37th position (across page boundaries).
  std::vector<ParallelConfig> out(97);
  for (std::uint64_t first = 0; first < all.size(); first += 37) {
    const std::size_t n = paged.valid_range(first, out);
    REQUIRE(n == std::min<std::size_t>(out.size(), all.size() - first));
    for (std::size_t i = 0; i < n; ++i) REQUIRE(out[i] == all[first + i]);
  }
  CHECK(paged.valid_range(all.size(), out) == 0);
  // index_of from four threads, each in its own order (the thread caches and the shared one).
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int k = 0; k < 4; ++k)
    threads.emplace_back([&, k] {
      for (std::size_t j = 0; j < all.size(); ++j) {
        const std::size_t i = (j * (2 * k + 1) + static_cast<std::size_t>(k) * 131) % all.size();
        if (paged.index_of(all[i]) != static_cast<std::int64_t>(i)) ++wrong;
        ParallelConfig off = all[i];
        off.kv_shard_mode =
            off.kv_shard_mode == KvShardMode::split ? KvShardMode::replicate : KvShardMode::split;
        if (paged.index_of(off) != resident.index_of(off)) ++wrong;
      }
    });
  for (auto& t : threads) t.join();
  CHECK(wrong.load() == 0);
}
