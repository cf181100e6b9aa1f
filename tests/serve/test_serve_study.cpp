// The serving study: counts add up, the best meets the SLO and is the best of every row, the
// frontier is exactly the brute-force one, the budget, the closest miss, thread counts.
#include <catch2/catch.hpp>
#include <cstring>
#include <set>

#include "core/cancellation.hpp"
#include "core/statistics/pareto.hpp"
#include "eval/grid_space.hpp"
#include "serve_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

std::set<std::uint64_t> keys(const std::vector<ServeRecord>& v) {
  std::set<std::uint64_t> k;
  for (const ServeRecord& r : v) k.insert(r.key);
  return k;
}

// The brute-force frontier of the rows within the SLO, over the study's axes.
std::set<std::uint64_t> brute_frontier(const StudyRun& run) {
  const std::size_t k = run.result.axes.size();
  std::vector<double> values;
  std::vector<Direction> dirs;
  for (const ServeAxis& a : run.result.axes) dirs.push_back(a.direction);
  std::vector<char> feasible;
  for (const ServeRecord& r : run.rows) {
    for (std::size_t j = 0; j < k; ++j) values.push_back(r.axis_values[j]);
    feasible.push_back(r.feasible);
  }
  std::unique_ptr<bool[]> f(new bool[feasible.size()]);
  for (std::size_t i = 0; i < feasible.size(); ++i) f[i] = feasible[i] != 0;
  const auto idx = pareto_front_bruteforce(values, k, dirs, std::span<const bool>(f.get(), feasible.size()));
  std::set<std::uint64_t> out;
  for (std::size_t i : idx) out.insert(run.rows[i].key);
  return out;
}

}  // namespace

TEST_CASE("serve study: the counts add up and every evaluated point is streamed once in order") {
  const Scenario sc = serve_scenario();
  const Session session(sc, registry());
  const StudyRun run = study(session);
  const ServeCounts& c = run.result.counts;
  const GridSpace space(sc.sweep, session.model(), session.machine(), session.workload());
  CHECK(c.configurations == space.valid_count());
  CHECK(c.enumerated == space.enumerated());
  CHECK(c.points == 6);  // 3 batches x 2 budgets
  CHECK(c.over_budget == 0);
  CHECK(c.evaluated == c.configurations * 6);
  CHECK(c.evaluated == c.within_slo + c.invalid + c.unsupported + c.kv_overflow + c.non_finite + c.slo_miss);
  CHECK(c.runnable == c.within_slo + c.slo_miss);
  REQUIRE(run.rows.size() == c.evaluated);
  std::uint64_t within = 0, runnable = 0, kv = 0;
  for (std::size_t i = 0; i < run.rows.size(); ++i) {
    const ServeRecord& r = run.rows[i];
    CHECK(r.key == i);
    CHECK(r.point.batch == sc.sweep.serving_batch[(i % 6) / 2]);  // batch major
    CHECK(r.point.token_budget == sc.sweep.serving_token_budget[i % 2]);
    within += r.feasible;
    runnable += r.runnable;
    kv += r.verdict == ServingVerdict::kv_overflow;
    CHECK((r.reason.empty()) == r.feasible);
  }
  CHECK(within == c.within_slo);
  CHECK(runnable == c.runnable);
  CHECK(kv == c.kv_overflow);
  // Llama-3.1-70B (about 141 GB of BF16 weights) does not fit one 80 GB H100: every tp1 pp1
  // point is a KV overflow.
  for (const ServeRecord& r : run.rows)
    if (r.config.tp == 1 && r.config.pp == 1) CHECK(r.verdict == ServingVerdict::kv_overflow);
  CHECK(c.within_slo > 0);
  CHECK(c.slo_miss > 0);
}

TEST_CASE("serve study: a row's figures are the serving evaluator's for that configuration and point") {
  const Scenario sc = serve_scenario();
  const Session session(sc, registry());
  const StudyRun run = study(session);
  const ServingEvaluator ev(session, sc.serving.slo);
  ServingEvaluation e;
  std::size_t checked = 0;
  for (const ServeRecord& r : run.rows) {
    if (!r.runnable || r.config.dp != 2) continue;
    ev.evaluate(r.config, r.point, e);
    CHECK(r.metrics.ttft_s == e.metrics.ttft_s);
    CHECK(r.metrics.tpot_s == e.metrics.tpot_s);
    // Two replicas: twice one replica's tokens/s, over every PE of the configuration.
    CHECK(r.replicas == 2);
    CHECK(r.pes == r.config.tp * r.config.pp * 2);
    CHECK(r.tokens_per_s == Approx(2 * e.metrics.tokens_per_s).epsilon(1e-15));
    CHECK(r.tokens_per_s_per_pe == Approx(2 * e.metrics.tokens_per_s / static_cast<double>(r.pes)));
    CHECK(r.tokens_per_s_per_user == Approx(1.0 / e.metrics.tpot_s));
    // serving/static: B OSL tokens per replica in TTFT + (OSL - 1) TPOT.
    const double e2e = e.metrics.ttft_s + 1023 * e.metrics.tpot_s;
    CHECK(e.metrics.tokens_per_s == Approx(static_cast<double>(r.point.batch) * 1024 / e2e));
    CHECK(r.axis_values[0] == e.objectives[0]);
    CHECK(r.axis_values[1] == static_cast<double>(r.pes));  // the pes objective
    ++checked;
  }
  CHECK(checked > 0);
}

TEST_CASE("serve study: the best meets the SLO and no row within the SLO ranks above it") {
  const Scenario sc = serve_scenario();
  const Session session(sc, registry());
  const StudyRun run = study(session, 2, 5);
  const ServeRecord* best = run.result.best();
  REQUIRE(best != nullptr);
  CHECK(best->feasible);
  CHECK(best->metrics.ttft_s <= 1.0);
  CHECK(best->metrics.tpot_s <= 0.050);
  CHECK(best->slo_ratio <= 1.0);
  CHECK(best->reason.empty());
  CHECK(run.result.axes[0].name == "throughput");
  CHECK(run.result.axes[0].direction == Direction::maximize);
  // The first objective (throughput, maximised), then fewer PEs, then the study's order.
  for (const ServeRecord& r : run.rows)
    if (r.feasible) CHECK_FALSE(serve_rank_less(r, *best));
  REQUIRE(run.result.top.size() == 5);
  for (std::size_t i = 1; i < run.result.top.size(); ++i)
    CHECK(serve_rank_less(run.result.top[i - 1], run.result.top[i]));
  for (const ServeRecord& r : run.result.top) {
    CHECK(r.feasible);
    CHECK(r.metrics.ttft_s <= 1.0);
    CHECK(r.metrics.tpot_s <= 0.050);
  }
  // Exactly 5 rows within the SLO rank at or above the fifth.
  std::size_t above = 0;
  for (const ServeRecord& r : run.rows)
    if (r.feasible && !serve_rank_less(run.result.top[4], r)) ++above;
  CHECK(above == 5);
}

TEST_CASE(
    "serve study: the Pareto frontier is exactly the brute-force frontier of the points within the SLO") {
  Scenario sc = serve_scenario();
  SECTION("objectives throughput and pes") {}
  SECTION("no objectives: tokens per second per PE against tokens per second per user") {
    sc.plugins.objectives.clear();
  }
  SECTION("three objectives") {
    sc.plugins.objectives = {choice("latency"), choice("pes"), choice("efficiency")};
  }
  const Session session(sc, registry());
  const StudyRun run = study(session);
  const std::set<std::uint64_t> brute = brute_frontier(run);
  CHECK(!brute.empty());
  CHECK(keys(run.result.frontier) == brute);
  for (std::size_t i = 1; i < run.result.frontier.size(); ++i)
    CHECK(serve_rank_less(run.result.frontier[i - 1], run.result.frontier[i]));
  for (const ServeRecord& r : run.result.frontier) CHECK(r.feasible);
  if (sc.plugins.objectives.empty()) {
    REQUIRE(run.result.axes.size() == 2);
    CHECK(run.result.axes[0].name == "tokens_per_s_per_pe");
    CHECK(run.result.axes[1].name == "tokens_per_s_per_user");
    const ServeRecord* best = run.result.best();
    REQUIRE(best);
    for (const ServeRecord& r : run.rows)
      if (r.feasible) CHECK(r.tokens_per_s_per_pe <= best->tokens_per_s_per_pe);
  }
}

TEST_CASE("serve study: the frontier is exact on the shipped Mixtral serving scenario through many merges") {
  const Scenario sc = load("mixtral-8x7b-serve-h100.yaml");
  const Session session(sc, registry());
  const StudyRun run = study(session, 2, 20, -1, 8192);
  // Thousands of points within the SLO: the streaming frontier merges its buffer (1024 points
  // at least per merge) several times.
  CHECK(run.result.counts.within_slo > 3 * 1024);
  CHECK(keys(run.result.frontier) == brute_frontier(run));
  CHECK(run.result.counts.evaluated == 403 * 20);  // 465 valid configurations, 62 over 64 PEs
  CHECK(run.result.counts.over_budget == 62);
}

TEST_CASE("serve study: the PE budget leaves out and counts the configurations over it") {
  Scenario sc = serve_scenario();
  SECTION("from the scenario") { sc.serving.max_pes = 8; }
  SECTION("from the options") {}
  const Session session(sc, registry());
  const StudyRun run = study(session, 2, 20, sc.serving.max_pes == 8 ? -1 : 8);
  const GridSpace space(sc.sweep, session.model(), session.machine(), session.workload());
  std::uint64_t over = 0;
  for (const ParallelConfig& c : space.valid_configs()) over += c.pes() > 8;
  // tp 1..8 x pp 1..2 x dp 1..2: tp8 pp2 dp1, tp8 pp1 dp2, tp8 pp2 dp2, tp4 pp2 dp2 have 16 or 32 PEs.
  CHECK(over > 0);
  CHECK(run.result.max_pes == 8);
  CHECK(run.result.counts.over_budget == over);
  CHECK(run.result.counts.evaluated == (run.result.counts.configurations - over) * 6);
  for (const ServeRecord& r : run.rows) CHECK(r.pes <= 8);
}

TEST_CASE("serve study: an impossible SLO names the closest miss: the runnable point nearest the SLO") {
  Scenario sc = serve_scenario();
  sc.serving.slo.tpot_s = 1e-6;  // 1 us per output token: nothing comes close
  const Session session(sc, registry());
  const StudyRun run = study(session);
  CHECK(run.result.counts.within_slo == 0);
  CHECK(run.result.best() == nullptr);
  CHECK(run.result.top.empty());
  CHECK(run.result.frontier.empty());
  REQUIRE(run.result.closest_miss.has_value());
  const ServeRecord& miss = *run.result.closest_miss;
  CHECK(miss.runnable);
  CHECK_FALSE(miss.feasible);
  CHECK(miss.slo_miss == SloMetric::tpot);
  double smallest = 1e300;
  for (const ServeRecord& r : run.rows)
    if (r.runnable) smallest = std::min(smallest, r.slo_ratio);
  CHECK(miss.slo_ratio == smallest);
  CHECK(miss.slo_ratio == Approx(miss.metrics.tpot_s / 1e-6));
  CHECK(miss.reason.rfind("TPOT ", 0) == 0);
  INFO(miss.reason);
  CHECK(miss.reason.find(" > SLO 1 ") != std::string::npos);
}

TEST_CASE("serve study: without an SLO every runnable point qualifies") {
  Scenario sc = serve_scenario();
  sc.serving.slo = ServingSlo{};
  const Session session(sc, registry());
  const StudyRun run = study(session);
  CHECK(run.result.counts.within_slo == run.result.counts.runnable);
  CHECK(run.result.counts.slo_miss == 0);
  CHECK_FALSE(run.result.closest_miss.has_value());
}

TEST_CASE("serve study: the same rows and result on 1 and 2 threads") {
  const Scenario sc = serve_scenario();
  const Session session(sc, registry());
  const StudyRun one = study(session, 1, 20, -1, 8192);
  const StudyRun two = study(session, 2, 20, -1, 8192);
  REQUIRE(one.rows.size() == two.rows.size());
  for (std::size_t i = 0; i < one.rows.size(); ++i) {
    CHECK(one.rows[i].key == two.rows[i].key);
    CHECK(one.rows[i].metrics.ttft_s == two.rows[i].metrics.ttft_s);
    CHECK(one.rows[i].metrics.tpot_s == two.rows[i].metrics.tpot_s);
    CHECK(one.rows[i].reason == two.rows[i].reason);
  }
  CHECK(keys(one.result.top) == keys(two.result.top));
  CHECK(keys(one.result.frontier) == keys(two.result.frontier));
  REQUIRE(one.result.best());
  CHECK(one.result.best()->key == two.result.best()->key);
}

TEST_CASE("serve study: cancellation stops it with Cancelled") {
  const Scenario sc = serve_scenario();
  const Session session(sc, registry());
  ServeStudyOptions o;
  o.batch = 4;
  std::size_t rounds = 0;
  o.on_progress = [&](const ProgressEvent& e) {
    CHECK(std::string(e.phase) == "serving points");
    if (++rounds == 2) request_cancellation();
  };
  CHECK_THROWS_AS(run_serve_study(session, o), Cancelled);
  clear_cancellation();
  CHECK(rounds == 2);
}

TEST_CASE("serve study: serving points are batch major and an empty list is its one default") {
  Sweep s;
  CHECK(serving_points(s, SpeculativeSpec{}).size() == 1);
  CHECK(serving_points(s, SpeculativeSpec{})[0].batch == 1);
  CHECK(serving_points(s, SpeculativeSpec{})[0].token_budget == 0);
  s.serving_batch = {1, 2, 4};
  s.serving_token_budget = {512, 8192};
  const auto p = serving_points(s, SpeculativeSpec{});
  REQUIRE(p.size() == 6);
  CHECK(p[1].batch == 1);
  CHECK(p[1].token_budget == 8192);
  CHECK(p[2].batch == 2);
  CHECK(p[5].batch == 4);
  CHECK(p[5].token_budget == 8192);
}

// A serving point is a question asked of the session's one context: the context object
// the evaluator holds is the same, byte for byte, after points of every kind (decode steps, the
// prefill, the peak memory), and the session's workload is still the scenario's.
TEST_CASE("serve study: evaluating points leaves the session's context and workload as they were") {
  const Scenario sc = serve_scenario();
  const Session session(sc, registry());
  const EvalContext* const ctx = &session.context();
  EvalContext before;
  std::memcpy(&before, ctx, sizeof before);
  const ServingEvaluator ev(session, sc.serving.slo);
  ServingEvaluation e;
  std::size_t runnable = 0;
  for (const std::int32_t tp : {2, 8})
    for (const std::int64_t batch : {1, 64}) {
      ParallelConfig c;
      c.tp = tp;
      ev.evaluate(c, ServingPoint{.batch = batch, .token_budget = 2048}, e);
      if (e.runnable) ++runnable;
      CHECK(&session.context() == ctx);
      CHECK(std::memcmp(&before, ctx, sizeof before) == 0);
    }
  CHECK(runnable >= 2);
  const Workload& w = session.workload();
  CHECK(w.mode == Mode::serve);
  CHECK(w.input == 4096);
  CHECK(w.output == 1024);
  CHECK(w.batch == 1);
}
