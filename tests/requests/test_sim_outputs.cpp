// What users see of a request simulation (docs/report.md "Request simulation"): the KV and
// queue time series (bounded, deterministic, hand-checked bins), the latency CDF points, the
// per-request timeline (--requests: CSV and JSON Lines), the simulation CSV (--csv's sibling),
// the simulation's JSON fields and charts, and memory flat without per-request output.
#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/requests/metric_stats.hpp"
#include "analysis/requests/request_sim.hpp"
#include "analysis/requests/time_series.hpp"
#include "fake_timer.hpp"
#include "report/charts/simulation_charts.hpp"
#include "report/charts/vega_specs.hpp"
#include "report/study_text/simulation_report.hpp"
#include "report/text/request_timeline.hpp"
#include "search_fixture.hpp"
#include "studies/entries/serve_entry.hpp"

using namespace tessera;
using namespace tessera::requests;

namespace {

StreamSpec three_requests() {
  // As test_engine's "three requests on one replica": r0 at 0 s (100 in, 3 out), r1 at 5 ms
  // (200 in, 2 out), r2 at 1 s (50 in, 1 out).
  StreamSpec s;
  s.arrival.kind = ArrivalKind::trace;
  s.requests = 3;
  s.trace = std::make_shared<const std::vector<TraceRow>>(
      std::vector<TraceRow>{{0, 100, 3, -1}, {0.005, 200, 2, -1}, {1.0, 50, 1, -1}});
  return s;
}

SimOptions roomy(bool exact) {
  SimOptions o;
  o.limits.max_sequences = 8;
  o.limits.token_budget = 1000;
  o.limits.kv_blocks = 1000;
  o.limits.block_tokens = 16;
  o.exact = exact;
  return o;
}

const nlohmann::json kProvenance = {
    {"tessera",
     {{"version", "0.1.0"},
      {"commit", "abc"},
      {"build_type", "Release"},
      {"sanitizers", "none"},
      {"compiler", "GNU"}}},
    {"plugins",
     nlohmann::json::array({{{"id", "serving/aggregated"}, {"version", "1.0.0"}, {"sha256", "ff"}}})}};

}  // namespace

TEST_CASE("time series bins are time-weighted means and peaks merged in pairs when full") {
  TimeSeries t(4, 1.0);
  t.add(0, 1, 0.5, 2);
  t.add(1, 3, 1.0, 0);
  auto s = t.samples();
  REQUIRE(s.size() == 3);
  CHECK(s[0].kv_occupancy_mean == 0.5);
  CHECK(s[2].start_s == 2.0);
  CHECK(s[2].kv_occupancy_mean == 1.0);
  // 6 s outgrow 4 bins of 1 s: pairs merge, bins of 2 s.
  t.add(3, 6, 0.0, 4);
  s = t.samples();
  REQUIRE(s.size() == 3);
  CHECK(t.width_s() == 2.0);
  CHECK(s[0].kv_occupancy_mean == 0.75);  // (0.5 x 1 + 1 x 1) / 2
  CHECK(s[0].kv_occupancy_peak == 1.0);
  CHECK(s[0].queue_depth_mean == 1.0);  // (2 x 1 + 0 x 1) / 2
  CHECK(s[0].queue_depth_peak == 2.0);
  CHECK(s[1].kv_occupancy_mean == 0.5);  // [2, 3): 1, [3, 4): 0
  CHECK(s[1].queue_depth_mean == 2.0);
  CHECK(s[1].queue_depth_peak == 4.0);
  CHECK(s[2].start_s == 4.0);
  CHECK(s[2].queue_depth_mean == 4.0);
  CHECK(s[2].width_s == 2.0);
}

TEST_CASE("time series covers every interval whole at bin edges that division rounds") {
  // 0.003 / 0.001 is 2.9999999999999996: the interval from 0.003 s starts in the fourth bin,
  // and none of it is lost.
  TimeSeries t(8, 0.001);
  t.add(0, 0.003, 0, 0);
  t.add(0.003, 0.005, 1, 2);
  const auto s = t.samples();
  REQUIRE(s.size() == 5);
  CHECK(s[3].kv_occupancy_mean == 1);
  CHECK(s[4].queue_depth_mean == 2);
  double covered = 0;
  for (const TimeSample& x : s) covered += x.kv_occupancy_mean * x.width_s;
  CHECK(covered == Approx(0.002));
}

TEST_CASE("time series stays bounded and gives the same bins for the same run") {
  auto run = [](double step) {
    TimeSeries t;  // 512 bins from 1 ms
    for (double now = 0; now < 10000; now += step)
      t.add(now, now + step, std::fmod(now, 7) / 7, std::fmod(now, 3));
    return t.samples();
  };
  const auto a = run(0.37), b = run(0.37);
  CHECK(a.size() <= kTimeSeriesPoints);
  CHECK(a.size() > kTimeSeriesPoints / 2);  // merged only when full: at least half used
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].kv_occupancy_mean == b[i].kv_occupancy_mean);
    CHECK(a[i].queue_depth_peak == b[i].queue_depth_peak);
  }
  CHECK(a.front().width_s == 0.001 * 32768);  // 1 ms doubled 15 times: 512 x 32.768 s >= 10,000 s
}

TEST_CASE("the simulation's time series of three requests by hand") {
  test::FakeTimer timer;
  const SimResult r = simulate(three_requests(), timer, roomy(true));
  // The run ends at 1.015 s: 1 ms bins doubled once (512 x 2 ms >= 1.015 s), 508 bins.
  REQUIRE(r.series.size() == 508);
  CHECK(r.series[0].width_s == 0.002);
  // r0's prefill [0, 20 ms) holds 7 blocks of 16 (100 tokens) of 1,000; r1 waits from 5 ms.
  CHECK(r.series[0].kv_occupancy_mean == Approx(0.007));
  CHECK(r.series[2].queue_depth_mean == Approx(0.5));  // [4, 6 ms): waiting from 5 ms
  CHECK(r.series[2].queue_depth_peak == 1);
  CHECK(r.series[9].queue_depth_mean == Approx(1));  // [18, 20 ms)
  CHECK(r.series[10].queue_depth_mean == 0);         // r1 admitted at 20 ms
  // From 20 ms both run: r0 7 blocks, r1 13 (200 tokens); idle after 63 ms; r2 (4 blocks) at 1 s.
  CHECK(r.series[10].kv_occupancy_mean == Approx(0.020));
  CHECK(r.series[100].kv_occupancy_peak == 0);
  CHECK(r.series[507].start_s == Approx(1.014));
  CHECK(r.series[507].kv_occupancy_mean == Approx(0.004));
  CHECK(r.values_kept == 3 + 2 + 3 + 3 + 3);  // exact: every TTFT, TPOT, ITL, E2E, queueing value
}

TEST_CASE("without per-request output the sketch path keeps no value per request") {
  StreamSpec s;
  s.arrival.kind = ArrivalKind::poisson;
  s.arrival.rate_per_s = 20;
  s.requests = 5000;
  s.warmup = 500;
  s.input.value = 100;
  s.output.value = 20;
  test::FakeTimer timer;
  const SimResult r = simulate(s, timer, roomy(false));
  CHECK(r.measured == 4500);
  CHECK(r.values_kept == 0);  // memory flat: sketches, no vector of requests
  CHECK(r.series.size() <= kTimeSeriesPoints);
  CHECK(r.ttft.count == 4500);
  // The CDF from the sketch: increasing, P50 the table's, P99 at most the max.
  CHECK(r.ttft.cdf[49] == r.ttft.percentile[0]);
  CHECK(r.ttft.cdf[98] == r.ttft.percentile[2]);
  for (std::size_t i = 1; i < kCdfPoints; ++i) CHECK(r.ttft.cdf[i] >= r.ttft.cdf[i - 1]);
  CHECK(r.ttft.cdf[98] <= r.ttft.max);
}

TEST_CASE("latency CDF points are the exact percentiles P1 to P99") {
  MetricStats m(100, true);
  for (std::uint64_t i = 0; i < 100; ++i) m.add(i, static_cast<double>(i + 1));  // 1 .. 100 s
  const MetricSummary s = m.summary();
  // R-7 on 1..100: P(q) = 1 + 99 q / 100.
  CHECK(s.cdf[0] == Approx(1.99));
  CHECK(s.cdf[49] == Approx(50.5));
  CHECK(s.cdf[98] == Approx(99.01));
  CHECK(s.max == 100);
  CHECK(m.kept() == 100);
  MetricStats sketch(100, false);
  for (std::uint64_t i = 0; i < 100; ++i) sketch.add(i, static_cast<double>(i + 1));
  CHECK(sketch.kept() == 0);
  const MetricSummary k = sketch.summary();
  for (std::size_t i = 0; i < kCdfPoints; ++i) CHECK(k.cdf[i] == Approx(s.cdf[i]).epsilon(0.005));
}

TEST_CASE("the per-request timeline as CSV of three requests by hand") {
  std::ostringstream os;
  RequestTimeline t(os, TimelineFormat::csv, 1);  // r0 is the warm-up
  t.header("tessera serve s.yaml --requests r.csv", {{"batch", 8}}, kProvenance);
  SimOptions o = roomy(true);
  o.on_request = [&](const RequestOutcome& r) { t.write(r); };
  test::FakeTimer timer;
  simulate(three_requests(), timer, o);
  CHECK(t.written() == 3);
  CHECK(os.str() ==
        "# generated by: tessera serve s.yaml --requests r.csv\n"
        "# tessera 0.1.0, commit abc, build Release, sanitizers none, compiler GNU\n"
        "# plugin serving/aggregated 1.0.0 sha256 ff\n"
        "# simulation {\"batch\":8}\n"
        "id,arrival_s,replica,input_tokens,output_tokens,prefix_id,first_scheduled_s,first_token_s,finish_s,"
        "ttft_s,tpot_s,e2e_s,queue_s,max_gap_s,preemptions,priority,measured\n"
        // TTFT 20 ms, TPOT (63 - 20) / 2 = 21.5 ms; r1 queued 15 ms, TPOT 12 ms; r2 one token.
        "0,0,0,100,3,,0,0.02,0.063,0.02,0.0215,0.063,0,0.031,0,0,false\n"
        "1,0.005,0,200,2,,0.02,0.051,0.063,0.046,0.012,0.058,0.015,0.012,0,0,true\n"
        "2,1,0,50,1,,1,1.015,1.015,0.015,,0.015,0,0,0,0,true\n");
}

TEST_CASE("the per-request timeline as JSON Lines names what was simulated first") {
  CHECK(timeline_format("out/r.jsonl") == TimelineFormat::jsonl);
  CHECK(timeline_format("out/r.NDJSON") == TimelineFormat::jsonl);
  CHECK(timeline_format("out/r.csv") == TimelineFormat::csv);
  CHECK(timeline_format("-") == TimelineFormat::csv);
  std::ostringstream os;
  RequestTimeline t(os, TimelineFormat::jsonl, 0);
  t.header("tessera serve s.yaml", {{"batch", 8}}, kProvenance);
  SimOptions o = roomy(true);
  o.on_request = [&](const RequestOutcome& r) { t.write(r); };
  test::FakeTimer timer;
  simulate(three_requests(), timer, o);
  std::istringstream in(os.str());
  std::string line;
  std::vector<nlohmann::json> lines;
  while (std::getline(in, line)) lines.push_back(nlohmann::json::parse(line));
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].at("tessera_requests") == 1);
  CHECK(lines[0].at("simulation").at("batch") == 8);
  CHECK(lines[0].at("provenance").at("tessera").at("commit") == "abc");
  CHECK(lines[2].at("id") == 1);
  CHECK(lines[2].at("ttft_s").get<double>() == Approx(0.046));
  CHECK(lines[2].at("queue_s").get<double>() == Approx(0.015));
  CHECK(lines[2].at("measured") == true);
  CHECK(lines[2].at("prefix_id").is_null());
  CHECK(lines[3].at("tpot_s").is_null());  // one output token: no TPOT
}

TEST_CASE("the simulation CSV has one row per metric in seconds") {
  test::FakeTimer timer;
  const SimResult r = simulate(three_requests(), timer, roomy(true));
  std::ostringstream os;
  write_simulation_csv(os, r);
  CHECK(os.str() ==
        "metric,count,mean_s,mean_half_width_s,p50_s,p50_half_width_s,p90_s,p90_half_width_s,p99_s,"
        "p99_half_width_s,max_s\n"
        // R-7 on three values: TTFT 15, 20, 46 ms, P90 20 + 0.8 x 26 = 40.8 ms; TPOT 12, 21.5 ms,
        // P90 12 + 0.9 x 9.5 = 20.55 ms; E2E 15, 58, 63 ms, P99 58 + 0.98 x 5 = 62.9 ms; queueing
        // 0, 0, 15 ms, P99 0.98 x 15 = 14.7 ms. No interval under two batches.
        "ttft,3,0.027,,0.02,,0.0408,,0.04548,,0.046\n"
        "tpot,2,0.01675,,0.01675,,0.02055,,0.021405,,0.0215\n"
        "itl,3,0.0183333333,,0.012,,0.0272,,0.03062,,0.031\n"
        "e2e,3,0.0453333333,,0.058,,0.062,,0.0629,,0.063\n"
        "queueing,3,0.005,,0,,0.012,,0.0147,,0.015\n");
}

TEST_CASE("the simulation charts are drawn from the JSON alone") {
  nlohmann::json result;
  CHECK(simulation_charts(result).empty());  // no simulation: no chart
  nlohmann::json sim;
  sim["config"] = {{"cp", 1}, {"tp", 8}, {"pp", 1}, {"dp", 1}, {"ep", 1}};
  sim["batch"] = 64;
  sim["requests_measured"] = 3;
  for (const char* m : {"ttft", "tpot", "e2e"}) {
    nlohmann::json cdf = nlohmann::json::array();
    for (int i = 1; i <= 99; ++i) cdf.push_back(0.01 * i);
    sim[m] = {{"cdf_s", cdf}, {"max_s", 2.0}};
  }
  sim["time_series_bin_s"] = 0.5;
  sim["time_series"] = nlohmann::json::array({{{"start_s", 0},
                                               {"kv_occupancy_mean", 0.25},
                                               {"kv_occupancy_peak", 0.5},
                                               {"queue_depth_mean", 1.5},
                                               {"queue_depth_peak", 3}}});
  result["simulation"] = sim;
  const std::vector<ChartSpec> charts = simulation_charts(result);
  REQUIRE(charts.size() == 3);
  CHECK(charts[0].id == "latency-cdf");
  CHECK(charts[0].spec.at("data").at("values").size() == 3 * 100);  // P1..P99 and the max, each metric
  CHECK(charts[0].spec.at("data").at("values")[99].at("percentile") == 100.0);
  CHECK(charts[1].id == "queue-depth");
  CHECK(charts[1].spec.at("data").at("values")[0].at("peak") == 3);
  // The peak as an area, the mean as a line, and a point per bin to hover (the browser test).
  REQUIRE(charts[1].spec.at("layer").size() == 3);
  CHECK(charts[1].spec.at("layer")[2].at("mark").at("type") == "point");
  CHECK_FALSE(charts[1].has_configs);
  CHECK(charts[2].id == "kv-occupancy");
  CHECK(charts[2].spec.at("data").at("values")[0].at("mean") == 0.25);
  CHECK(charts[0].note.find("cp=1 tp=8 pp=1 dp=1 ep=1, batch 64") != std::string::npos);
  CHECK(charts[1].note.find("Bins of 0.5 s") != std::string::npos);
}

TEST_CASE("serve's simulation document carries the CDFs and the time series its charts draw") {
  studies::ScenarioOptions so;
  so.path = test::scenario_path("llama3.1-70b-serve-4k1k-h100-poisson.yaml");
  const studies::StudyContext study(so, {}, studies::StudyKind::serve);
  studies::ServeOptions o;
  o.threads = 2;
  o.document = true;
  o.simulate_top = 0;  // the capacity search: test_capacity.cpp
  std::uint64_t seen = 0, measured = 0;
  bool started_first = false;
  o.on_simulation_start = [&](const ParallelConfig&, const ServingPoint&) { started_first = seen == 0; };
  o.on_request = [&](const RequestOutcome& r) {
    ++seen;
    if (r.request.id >= 200) ++measured;
  };
  const studies::ServeStudyResult r = studies::serve(study, o);
  REQUIRE(r.simulated);
  CHECK(started_first);
  CHECK(seen == 2000);
  CHECK(measured == 1800);
  const nlohmann::json& j = r.document.at("simulation");
  REQUIRE(j.at("ttft").at("cdf_s").size() == kCdfPoints);
  CHECK(j.at("ttft").at("cdf_s")[98].get<double>() == j.at("ttft").at("p99_s").get<double>());
  CHECK(j.at("stream").at("requests") == 2000);
  CHECK(j.at("stream").at("warmup") == 200);
  const nlohmann::json& series = j.at("time_series");
  CHECK(series.size() <= kTimeSeriesPoints);
  CHECK(series.size() == r.simulated->result.series.size());
  CHECK(j.at("time_series_bin_s").get<double>() == r.simulated->result.series.front().width_s);
  // The series covers the run: its last bin holds the last event.
  const double end = r.simulated->result.end_s;
  CHECK(series.back().at("start_s").get<double>() <= end);
  CHECK(series.back().at("start_s").get<double>() + j.at("time_series_bin_s").get<double>() >= end);
  std::vector<std::string> ids;
  for (const ChartSpec& c : serve_charts(r.document)) ids.push_back(c.id);
  CHECK(ids == std::vector<std::string>{"frontier", "stages", "latency-cdf", "queue-depth", "kv-occupancy"});
}
