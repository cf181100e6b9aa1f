// ServeStudyOptions::points (`tessera serve --json`'s `points`, docs/report.md): every runnable
// point when they are no more than the bound, else a seeded sample of the bound, the same on any
// thread count and batch size, in the study's order.
#include <catch2/catch.hpp>

#include "serve_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

ServeResult with_points(const Session& session, std::size_t points, unsigned threads, std::size_t batch) {
  ServeStudyOptions o;
  o.threads = threads;
  o.batch = batch;
  o.points = points;
  return run_serve_study(session, o);
}

}  // namespace

TEST_CASE("serve points are every runnable point when they are few", "[serve][points]") {
  Session session(serve_scenario(), registry());
  const StudyRun all = study(session);
  const ServeResult r = with_points(session, 100000, 2, 7);
  std::vector<const ServeRecord*> runnable;
  for (const ServeRecord& row : all.rows)
    if (row.runnable) runnable.push_back(&row);
  REQUIRE(!runnable.empty());
  REQUIRE(r.points.size() == runnable.size());
  CHECK(r.points_seen == r.counts.runnable);
  CHECK_FALSE(r.points_sampled);
  bool same = true;
  for (std::size_t i = 0; i < runnable.size(); ++i) {
    const ServePoint& p = r.points[i];
    const ServeRecord& q = *runnable[i];
    same = same && p.key == q.key && p.config == q.config && p.point.batch == q.point.batch &&
           p.tokens_per_s_per_pe == q.tokens_per_s_per_pe &&
           p.tokens_per_s_per_user == q.tokens_per_s_per_user && p.tpot_s == q.metrics.tpot_s &&
           p.feasible == q.feasible;
  }
  CHECK(same);
}

TEST_CASE("serve points beyond the bound are a sample of the bound - the same on any thread count",
          "[serve][points]") {
  Session session(serve_scenario(), registry());
  const ServeResult a = with_points(session, 5, 1, 7);
  const ServeResult b = with_points(session, 5, 3, 1000);
  REQUIRE(a.points_seen > 5);
  CHECK(a.points_sampled);
  REQUIRE(a.points.size() == 5);
  REQUIRE(b.points.size() == 5);
  for (std::size_t i = 0; i < 5; ++i) {
    CHECK(a.points[i].key == b.points[i].key);
    if (i > 0) CHECK(a.points[i - 1].key < a.points[i].key);
  }
  CHECK(with_points(session, 0, 2, 7).points.empty());
}
