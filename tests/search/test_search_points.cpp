// SearchOptions::points (`--json`'s `points`, docs/report.md): every valid configuration when
// they are no more than the bound, else a seeded sample of the bound, the same on any thread
// count and batch size, in the space's order, with no allocation per configuration.
#include <catch2/catch.hpp>

#include <iostream>

#include "alloc_counter.hpp"
#include "search_fixture.hpp"
#include "studies/json/points_json.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

SearchResult search(const Session& s, std::size_t points, unsigned threads, std::size_t batch,
                    bool keep = false) {
  const auto st = registry().create_search(choice("exhaustive"));
  SearchOptions o;
  o.threads = threads;
  o.batch = batch;
  o.points = points;
  o.keep_records = keep;
  return run_search(s, *st, o);
}

std::vector<std::uint64_t> keys(const SearchResult& r) {
  std::vector<std::uint64_t> k;
  for (const SearchPoint& p : r.points) k.push_back(p.key);
  return k;
}

}  // namespace

TEST_CASE("search points are every valid configuration when they are few", "[search][points]") {
  Session s(load("llama3.1-70b-decode-128k.yaml"), registry());
  const SearchResult all = search(s, 100000, 2, 4096, true);
  std::vector<const ConfigRecord*> valid;
  for (const ConfigRecord& r : all.records)
    if (r.valid && r.non_finite == NonFinite::none) valid.push_back(&r);
  REQUIRE(valid.size() == 7331);  // the scenario's valid configurations, all with finite numbers
  REQUIRE(all.points.size() == valid.size());
  CHECK(all.points_seen == valid.size());
  CHECK_FALSE(all.points_sampled);
  bool same = true;
  for (std::size_t i = 0; i < valid.size(); ++i) {
    const SearchPoint& p = all.points[i];
    same = same && p.key == static_cast<std::uint64_t>(valid[i]->grid_index) &&
           p.config == valid[i]->config && p.latency_s == valid[i]->latency_s && p.pes == valid[i]->pes &&
           p.feasible == valid[i]->feasible && p.objectives == valid[i]->objectives;
  }
  CHECK(same);
}

TEST_CASE("search points beyond the bound are a sample of the bound - the same on any thread count",
          "[search][points]") {
  Session s(load("llama3.1-70b-decode-128k.yaml"), registry());
  const SearchResult a = search(s, 500, 1, 4096);
  const SearchResult b = search(s, 500, 3, 333);
  CHECK(a.points.size() == 500);
  CHECK(a.points_seen == 7331);
  CHECK(a.points_sampled);
  const std::vector<std::uint64_t> ka = keys(a);
  CHECK(ka == keys(b));
  CHECK(std::is_sorted(ka.begin(), ka.end()));
  const SearchResult none = search(s, 0, 2, 4096);
  CHECK(none.points.empty());
  CHECK(none.points_seen == 0);
}

TEST_CASE("collecting search points allocates nothing per configuration", "[search][points][alloc]") {
  Scenario sc = load("llama3.1-70b-decode-128k.yaml");
  sc.workload.context = 4096;
  sc.sweep.cp = {1, 2, 3, 4, 6, 8, 12, 16};
  sc.sweep.pp = {1, 2, 3, 4, 5, 6, 8, 10, 16, 20};
  Session s(sc, registry());
  search(s, 5000, 2, 4096);  // memos filled
  std::uint64_t before = allocation_count();
  const SearchResult off = search(s, 0, 2, 4096);
  const std::uint64_t without = allocation_count() - before;
  before = allocation_count();
  const SearchResult on = search(s, 5000, 2, 4096);
  const std::uint64_t with = allocation_count() - before;
  std::cout << "points sweep: " << with << " allocations with points, " << without << " without, for "
            << on.counts.evaluated << " configurations\n";
  CHECK(on.points_sampled);
  CHECK(on.counts.evaluated == off.counts.evaluated);
  // The buffer, reserved once: a constant, not one per configuration (19512 here).
  CHECK(with <= without + 8);
}

TEST_CASE("search points of a sample carry sampled - those of a full list do not", "[search][points][json]") {
  Session s(load("llama3.1-70b-decode-128k.yaml"), registry());
  nlohmann::json sampled, full;
  add_search_points(sampled, s, search(s, 500, 2, 4096));
  add_search_points(full, s, search(s, 100000, 2, 4096));
  REQUIRE(sampled["points"].size() == 500);
  CHECK(sampled["points_total"] == 7331);
  CHECK(sampled["points_sampled"] == true);
  std::size_t flagged = 0;
  for (const auto& p : sampled["points"]) flagged += p.value("sampled", false) ? 1 : 0;
  CHECK(flagged == 500);
  REQUIRE(full["points"].size() == 7331);
  CHECK(full["points_sampled"] == false);
  std::size_t with_key = 0;
  for (const auto& p : full["points"]) with_key += p.contains("sampled") ? 1 : 0;
  CHECK(with_key == 0);
}
