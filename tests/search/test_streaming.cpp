// The compact grid and the streaming driver (docs/performance.md "What changed, and why"):
// GridSpace lists exactly what a plain enumeration of the grid lists; a search that keeps no
// per-config records finds the same best, Pareto frontier and top N as one that keeps them all and
// ranks them afterwards, for every thread count and batch size; --csv's stream sees every
// configuration once; evaluating a configuration allocates nothing.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <sstream>
#include <unordered_set>

#include "alloc_counter.hpp"
#include "core/statistics/pareto.hpp"
#include "report/study_text/search_report.hpp"
#include "search_fixture.hpp"
#include "tessera/physics/layout.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

// The grid as its first implementation listed it: every grid point in order (numeric knobs
// outermost), its canonical form kept at its first occurrence when valid.
std::vector<ParallelConfig> plain_enumeration(const Sweep& sw, const ModelSpec& model,
                                              const MachineSpec& machine, const Workload& workload) {
  const auto sorted = [](std::vector<std::int32_t> v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    if (v.empty()) v.push_back(1);
    return v;
  };
  const auto uniq = [](auto v, auto fallback) {
    decltype(v) out;
    for (const auto& x : v)
      if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
    if (out.empty()) out.push_back(fallback);
    return out;
  };
  std::vector<ParallelConfig> out;
  std::unordered_set<ParallelConfig> seen;
  Layout layout;
  for (auto cp : sorted(sw.cp))
    for (auto tp : sorted(sw.tp))
      for (auto pp : sorted(sw.pp))
        for (auto dp : sorted(sw.dp))
          for (auto ep : sorted(sw.ep))
            for (auto kv : uniq(sw.kv_shard_mode, KvShardMode::split))
              for (auto ffn : uniq(sw.ffn_shard_scope, FfnShardScope::tp))
                for (auto tpp : uniq(sw.tp_placement, std::int8_t{0}))
                  for (auto cpp : uniq(sw.cp_placement, std::int8_t{1}))
                    for (auto ring : uniq(sw.cp_ring_variant, CpRingVariant::kv)) {
                      ParallelConfig c;
                      c.cp = cp;
                      c.tp = tp;
                      c.pp = pp;
                      c.dp = dp;
                      c.ep = ep;
                      c.kv_shard_mode = kv;
                      c.ffn_shard_scope = ffn;
                      c.tp_placement = tpp;
                      c.cp_placement = cpp;
                      c.cp_ring_variant = ring;
                      const ParallelConfig k = canonicalize(model, c);
                      if (seen.count(k)) continue;
                      compute_layout(model, machine, workload, k, layout);
                      if (!layout.valid) continue;
                      seen.insert(k);
                      out.push_back(k);
                    }
  return out;
}

void check_grid(const Scenario& sc) {
  const GridSpace g(sc.sweep, sc.model, sc.machine, sc.workload);
  const std::vector<ParallelConfig> ref = plain_enumeration(sc.sweep, sc.model, sc.machine, sc.workload);
  REQUIRE(g.valid_count() == ref.size());
  // Piecewise, in odd chunks, before the list is ever built.
  std::vector<ParallelConfig> chunks;
  ParallelConfig buf[7];
  for (std::uint64_t first = 0;;) {
    const std::size_t n = g.valid_range(first, std::span<ParallelConfig>(buf, 7));
    if (n == 0) break;
    chunks.insert(chunks.end(), buf, buf + n);
    first += n;
  }
  CHECK(chunks == ref);
  CHECK(g.valid_configs() == ref);
  bool indices = true;
  for (std::size_t i = 0; i < ref.size(); ++i)
    indices = indices && g.index_of(ref[i]) == static_cast<std::int64_t>(i) && g.valid_config(i) == ref[i];
  CHECK(indices);
  // Every grid point: valid and canonical exactly when listed.
  const std::unordered_set<ParallelConfig> listed(ref.begin(), ref.end());
  bool membership = true;
  std::size_t points = 0;
  for (auto cp : g.values_cp())
    for (auto tp : g.values_tp())
      for (auto pp : g.values_pp())
        for (auto kv : g.values_kv_shard_mode())
          for (auto tpp : g.values_tp_placement())
            for (auto ring : g.values_cp_ring_variant()) {
              ParallelConfig c = g.defaults();
              c.cp = cp;
              c.tp = tp;
              c.pp = pp;
              c.kv_shard_mode = kv;
              c.tp_placement = tpp;
              c.cp_ring_variant = ring;
              membership = membership && g.is_valid_canonical(c) == (listed.count(c) != 0);
              ++points;
            }
  CHECK(membership);
  CHECK(points > 0);
  ParallelConfig off = g.defaults();
  off.cp = 1000003;  // not on the grid
  CHECK(g.index_of(off) == -1);
}

// A grid of ~10^5 configurations, most of them feasible (4K context), for the streaming checks.
Scenario synthetic_scenario() {
  Scenario sc = load("llama3.1-70b-decode-128k.yaml");
  sc.workload.context = 4096;
  sc.sweep.cp = {1, 2, 3, 4, 6, 8, 12, 16};
  sc.sweep.tp = {1, 2, 4, 8, 16, 32, 64};
  sc.sweep.pp = {1, 2, 3, 4, 5, 6, 8, 10, 16, 20};
  sc.sweep.dp = {1, 2, 3, 4, 6, 8};
  sc.sweep.cp_ring_variant = {CpRingVariant::kv, CpRingVariant::qoml, CpRingVariant::tree};
  return sc;
}

SearchResult run(const Session& s, const SearchStrategy& st, unsigned threads, bool keep,
                 std::size_t batch = 4096, std::size_t top = 20) {
  SearchOptions o;
  o.threads = threads;
  o.keep_records = keep;
  o.batch = batch;
  o.top = top;
  return run_search(s, st, o);
}

bool same_record(const ConfigRecord& a, const ConfigRecord& b) {
  return a.config == b.config && a.grid_index == b.grid_index && a.objectives == b.objectives &&
         a.score == b.score && a.latency_s == b.latency_s && a.throughput_tok_s == b.throughput_tok_s &&
         a.pipeline_throughput_tok_s == b.pipeline_throughput_tok_s && a.efficiency == b.efficiency &&
         a.compute_util == b.compute_util && a.bw_util == b.bw_util && a.pes == b.pes &&
         a.units_used == b.units_used && a.valid == b.valid && a.placement_valid == b.placement_valid &&
         a.fits_memory == b.fits_memory && a.feasible == b.feasible && a.reason == b.reason &&
         a.used_bytes == b.used_bytes && a.budget_bytes == b.budget_bytes &&
         a.weights_bytes == b.weights_bytes && a.kv_bytes == b.kv_bytes &&
         a.transient_bytes == b.transient_bytes && a.hbm_utilization == b.hbm_utilization;
}

// The same best, top and frontier (as records, since the index spaces differ).
void check_same_results(const SearchResult& a, const SearchResult& b) {
  CHECK(a.counts.enumerated == b.counts.enumerated);
  CHECK(a.counts.valid == b.counts.valid);
  CHECK(a.counts.evaluated == b.counts.evaluated);
  CHECK(a.counts.feasible == b.counts.feasible);
  REQUIRE(a.best.has_value() == b.best.has_value());
  if (a.best) CHECK(same_record(a.records[*a.best], b.records[*b.best]));
  REQUIRE(a.top.size() == b.top.size());
  bool top = true;
  for (std::size_t i = 0; i < a.top.size(); ++i)
    top = top && same_record(a.records[a.top[i]], b.records[b.top[i]]);
  CHECK(top);
  REQUIRE(a.pareto.size() == b.pareto.size());
  bool pareto = true;
  for (std::size_t i = 0; i < a.pareto.size(); ++i)
    pareto = pareto && same_record(a.records[a.pareto[i]], b.records[b.pareto[i]]);
  CHECK(pareto);
}

// The ranking and frontier recomputed from every record, as the driver first did it.
void check_against_all_records(const SearchResult& all, const SearchResult& streamed, std::size_t top_n) {
  std::vector<std::size_t> ranked;
  for (std::size_t i = 0; i < all.records.size(); ++i)
    if (all.records[i].feasible) ranked.push_back(i);
  std::stable_sort(ranked.begin(), ranked.end(), [&](std::size_t a, std::size_t b) {
    const ConfigRecord& x = all.records[a];
    const ConfigRecord& y = all.records[b];
    if (x.score != y.score) return x.score < y.score;
    if (x.pes != y.pes) return x.pes < y.pes;
    return a < b;
  });
  REQUIRE(streamed.top.size() == std::min(top_n, ranked.size()));
  bool top = true;
  for (std::size_t i = 0; i < streamed.top.size(); ++i)
    top = top && same_record(all.records[ranked[i]], streamed.records[streamed.top[i]]);
  CHECK(top);
  const std::size_t k = all.objectives.size();
  std::vector<double> values;
  std::vector<std::size_t> map;
  std::vector<Direction> dirs;
  for (const auto& o : all.objectives) dirs.push_back(o.direction);
  for (std::size_t i = 0; i < all.records.size(); ++i) {
    if (!all.records[i].feasible) continue;
    for (std::size_t j = 0; j < k; ++j) values.push_back(all.records[i].objectives[j]);
    map.push_back(i);
  }
  const auto front = pareto_front(values, k, dirs);
  REQUIRE(front.size() == streamed.pareto.size());
  bool pareto = true;
  for (std::size_t i = 0; i < front.size(); ++i)
    pareto = pareto && same_record(all.records[map[front[i]]], streamed.records[streamed.pareto[i]]);
  CHECK(pareto);
}

}  // namespace

TEST_CASE("GridSpace lists what a plain enumeration of the grid lists - every scenario", "[grid][stream]") {
  int checked = 0;
  for (const std::string& file : scenario_files()) {
    Scenario sc;
    try {
      sc = load(file);
    } catch (const std::exception& e) {
      WARN("skipping " << file << ": " << e.what());
      continue;
    }
    INFO(file);
    check_grid(sc);
    ++checked;
  }
  CHECK(checked > 0);
}

TEST_CASE("GridSpace lists what a plain enumeration lists - odd grids", "[grid][stream]") {
  SECTION("duplicates, unsorted lists, placements beyond the hierarchy, replicate only") {
    Scenario sc = load("llama3.1-70b-decode-128k.yaml");
    sc.sweep.cp = {3, 1, 6, 1, 16};
    sc.sweep.tp = {8, 1, 2, 16, 12, 64};
    sc.sweep.pp = {1, 80, 81, 2};
    sc.sweep.dp = {1, 2, 3};
    sc.sweep.kv_shard_mode = {KvShardMode::replicate};
    sc.sweep.ffn_shard_scope = {FfnShardScope::tp_cp_dp, FfnShardScope::tp};
    sc.sweep.tp_placement = {1, 0, 5, -1, 1};
    sc.sweep.cp_placement = {0, 3, 2};
    sc.sweep.cp_ring_variant = {CpRingVariant::tree, CpRingVariant::qoml, CpRingVariant::kv};
    check_grid(sc);
  }
  SECTION("prefill: tree is not valid") {
    Scenario sc = load("llama3.1-8b-prefill-8k-h100.yaml");
    sc.sweep.cp = {1, 2, 4};
    sc.sweep.cp_ring_variant = {CpRingVariant::tree, CpRingVariant::kv};
    check_grid(sc);
  }
  SECTION("MoE with MLA: ep and the shared latent") {
    Scenario sc = load("deepseek-v3-decode-32k-h200.yaml");
    sc.sweep.ep = {1, 3, 8, 16, 256, 512};
    sc.sweep.tp = {1, 2, 4, 8, 16, 32, 128};
    check_grid(sc);
  }
}

TEST_CASE("a streaming search finds the same best - top and frontier as one keeping every record",
          "[search][stream]") {
  int checked = 0;
  for (const std::string& file : scenario_files()) {
    std::unique_ptr<Session> session;
    Scenario sc;
    try {
      sc = load(file);
      if (sc.workload.mode == Mode::serve) continue;  // `tessera serve`'s study: tests/serve
      session = std::make_unique<Session>(sc, registry());
    } catch (const std::exception& e) {
      WARN("skipping " << file << ": " << e.what());
      continue;
    }
    for (const std::string& strategy : {std::string("exhaustive"), sc.plugins.search.name}) {
      INFO(file << " with " << strategy);
      const auto st = registry().create_search(choice(strategy));
      const SearchResult all = run(*session, *st, 2, true);
      const SearchResult streamed = run(*session, *st, 2, false);
      check_same_results(all, streamed);
      check_against_all_records(all, streamed, 20);
      CHECK(all.records.size() == all.counts.evaluated);
      CHECK(streamed.records.size() <= streamed.top.size() + streamed.pareto.size());
    }
    ++checked;
  }
  CHECK(checked > 0);
}

TEST_CASE("streamed results do not depend on the thread count or the batch size",
          "[search][stream][driver]") {
  const Scenario sc = synthetic_scenario();
  Session s(sc, registry());
  const auto st = registry().create_search(choice("exhaustive"));
  const SearchResult all = run(s, *st, 2, true, 4096, 50);
  std::cout << "synthetic grid: " << all.counts.valid << " valid, " << all.counts.feasible
            << " feasible, frontier " << all.pareto.size() << "\n";
  // Many more feasible configurations than one frontier merge takes (1024): merges exercised.
  CHECK(all.counts.feasible > 16384);
  const SearchResult one = run(s, *st, 1, false, 4096, 50);
  check_against_all_records(all, one, 50);
  for (unsigned threads : {2u, 5u})
    for (std::size_t batch : {std::size_t{4096}, std::size_t{1000}, std::size_t{333}}) {
      INFO(threads << " threads, batch " << batch);
      check_same_results(one, run(s, *st, threads, false, batch, 50));
    }
}

TEST_CASE("on_record sees every evaluated configuration once - in the space's order - with reasons",
          "[search][stream]") {
  const Scenario sc = load("llama3.1-70b-decode-128k.yaml");
  Session s(sc, registry());
  const auto st = registry().create_search(choice("exhaustive"));
  const SearchResult all = run(s, *st, 2, true);
  std::vector<ConfigRecord> seen;
  std::ostringstream csv;
  const StudyDescription d = describe_study(s);
  write_search_csv_header(csv, d, d.objectives);
  SearchOptions o;
  o.threads = 3;
  o.on_record = [&](const ConfigRecord& r) {
    seen.push_back(r);
    write_search_csv_row(csv, d, d.objectives, r);
  };
  const SearchResult streamed = run_search(s, *st, o);
  // `tessera run --csv` streamed: the same text as the whole-result CSV of every record.
  CHECK(csv.str() == search_csv(d, all));
  REQUIRE(seen.size() == all.records.size());
  bool same = true;
  for (std::size_t i = 0; i < seen.size(); ++i) same = same && same_record(seen[i], all.records[i]);
  CHECK(same);
  CHECK(streamed.counts.evaluated == seen.size());
  for (const auto& r : seen)
    if (!r.feasible) CHECK(!r.reason.empty());
}

TEST_CASE("evaluating a configuration allocates nothing", "[search][alloc]") {
  for (const char* file : {"llama3.1-70b-decode-128k.yaml", "deepseek-v3-decode-32k-h200.yaml",
                           "llama3.1-8b-prefill-8k-h100.yaml", "mixtral-8x7b-decode-32k-h100.yaml",
                           "llama3.1-8b-prefill-8k-h100.yaml#chunked"}) {
    INFO(file);
    const std::string name(file);
    const bool chunked = name.find("#chunked") != std::string::npos;
    // The chunked TP overlap and the all-reduce + RMSNorm fusion run on the same hot path.
    const Scenario sc =
        chunked
            ? load(name.substr(0, name.find('#')),
                   {"plugins.latency={name: calibrated, tp_overlap: chunked, allreduce_norm_fusion: true}"})
            : load(file);
    Session s(sc, registry());
    const GridSpace g(sc.sweep, s.model(), s.machine(), s.workload());
    const auto& configs = g.valid_configs();
    Evaluation e;
    for (const auto& c : configs) s.evaluator().evaluate(c, e);  // first sight fills the memos
    const std::uint64_t before = allocation_count();
    for (const auto& c : configs) s.evaluator().evaluate(c, e);
    CHECK(allocation_count() - before == 0);
  }
}

TEST_CASE("a streaming search's allocations do not grow with the configurations it evaluates",
          "[search][alloc][stream]") {
  const Scenario sc = synthetic_scenario();
  Session s(sc, registry());
  const auto st = registry().create_search(choice("exhaustive"));
  run(s, *st, 2, false);  // memos filled
  const std::uint64_t before = allocation_count();
  const SearchResult r = run(s, *st, 2, false);
  const double per_config =
      static_cast<double>(allocation_count() - before) / static_cast<double>(r.counts.evaluated);
  std::cout << "streaming sweep: " << allocation_count() - before << " allocations for " << r.counts.evaluated
            << " configurations\n";
  CHECK(per_config < 0.02);
}

TEST_CASE("the per-placement layout memo gives what a fresh evaluation gives - in any order",
          "[search][memo]") {
  for (const char* file : {"llama3.1-70b-decode-128k.yaml", "deepseek-v3-decode-32k-h200.yaml",
                           "llama3.1-8b-prefill-8k-h100.yaml"}) {
    INFO(file);
    const Scenario sc = load(file);
    Session s(sc, registry());
    const GridSpace g(sc.sweep, s.model(), s.machine(), s.workload());
    std::vector<ParallelConfig> configs = g.valid_configs();
    // Every grid point too (invalid ones included), in a scrambled order.
    for (std::size_t i = 0; i < configs.size(); i += 3) {
      ParallelConfig c = configs[i];
      c.kv_shard_mode = KvShardMode::replicate;
      c.cp_ring_variant = CpRingVariant::tree;
      configs.push_back(c);
    }
    for (std::size_t i = 0; i < configs.size(); ++i)
      std::swap(configs[i], configs[(i * 7919) % configs.size()]);
    Evaluation reused, another;
    s.evaluator().evaluate(configs.front(), another);  // a buffer that has met another evaluator
    bool same = true;
    for (const ParallelConfig& c : configs) {
      Evaluation fresh;
      s.evaluator().evaluate(c, reused);
      s.evaluator().evaluate(c, fresh);
      same = same && reused.valid == fresh.valid && reused.layout.reason == fresh.layout.reason;
      if (!fresh.valid) continue;  // the rest of an invalid config's buffer is not defined
      same = same && reused.layout.tp.bandwidth == fresh.layout.tp.bandwidth &&
             reused.layout.units_used == fresh.layout.units_used &&
             reused.layout.pp_hop.level == fresh.layout.pp_hop.level &&
             reused.layout.kv_group.level == fresh.layout.kv_group.level &&
             reused.layout.ffn.bandwidth == fresh.layout.ffn.bandwidth && reused.feasible == fresh.feasible &&
             reused.totals.latency_s == fresh.totals.latency_s && reused.objectives == fresh.objectives;
    }
    CHECK(same);
    // A buffer moved to another session (another machine) does not reuse the first one's layouts.
    MachineSpec m = s.machine();
    for (auto& level : m.levels) level.link_bw *= 3;
    const auto faster = s.with_machine(m);
    Evaluation fresh;
    faster->evaluator().evaluate(configs.front(), reused);
    faster->evaluator().evaluate(configs.front(), fresh);
    CHECK(reused.layout.tp.bandwidth == fresh.layout.tp.bandwidth);
    CHECK(reused.totals.latency_s == fresh.totals.latency_s);
  }
}
