// Rows under a load (analysis/accuracy/load_rows.hpp, docs/accuracy.md "Rows under a load"): what the notes
// state (a request rate, MLPerf Server's limits, the engine's sequence cap), the statistic a
// metric's suffix names, which rows the plan sends to the request simulator and why others stay
// unmapped, and properties of the predictions on NVIDIA NIM's Llama-3.3-70B FP8 TP2 row
// (data/measurements-serving.csv 906: 5000/500 tokens) rewritten under a Poisson rate.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <algorithm>
#include <map>

#include "analysis/accuracy/accuracy_study.hpp"
#include "analysis/accuracy/load_rows.hpp"
#include "analysis/measurements/row_units.hpp"
#include "host/plugin_registry.hpp"
#include "registry_fixture.hpp"
#include "row_fixture.hpp"
#include "studies/documents/accuracy_document.hpp"
#include "tessera/error.hpp"
#include "tessera/limits.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_load_rows {

using namespace tessera;
using tessera::test::registry;
using namespace tessera::accuracy;

namespace {

const std::string kRoot = TESSERA_SOURCE_DIR;

DataRow nim_row() {
  for (const DataRow& r : read_measurements(kRoot + "/data/measurements-serving.csv"))
    if (r.id == "906") return r;
  FAIL("row 906 not found");
  return {};
}

// Row 906 (TTFT, ms) measured instead under Poisson arrivals at `rate` requests/s.
DataRow under_rate(double rate, const std::string& metric = "ttft") {
  DataRow r = nim_row();
  r.batch = "";
  r.metric = metric;
  r.notes = "benchmark client at request_rate=" + std::to_string(rate) + "/s, fixed lengths";
  r.source_locator = "synthetic";
  return r;
}

const ModelReport& one(const std::vector<ModelReport>& reports) {
  REQUIRE(reports.size() == 1);
  return reports[0];
}

std::vector<ModelReport> validate(const std::vector<DataRow>& rows) {
  ValidateOptions o;
  o.latency = {"calibrated"};
  o.data_root = kRoot;
  return validate_data(rows, registry(), o);
}

}  // namespace

TEST_CASE("load rows: the rate and limits and sequence cap the notes state", "[validate-data][load]") {
  CHECK(
      stated_request_rate("Server scenario (Poisson arrivals, target_qps 39.6, completed 39.25 samples/s)") ==
      Approx(39.6));
  CHECK(stated_request_rate("request_rate=10/s") == Approx(10));
  CHECK(stated_request_rate("request_rate = 2.5") == Approx(2.5));
  CHECK(stated_request_rate("at a request rate of 4 req/s") == Approx(4));
  CHECK(stated_request_rate("Request rate 8 qps, 1000 prompts") == Approx(8));
  CHECK(stated_request_rate("vllm bench serve --request-rate 10 --num-prompts 500") == Approx(10));
  CHECK_FALSE(stated_request_rate("--request-rate inf (vLLM's default)"));
  CHECK(stated_sequence_cap("MAX_NUM_SEQS=650") == 650);
  CHECK_FALSE(stated_request_rate("measured under offered load"));
  CHECK_FALSE(stated_request_rate("request rate not stated"));
  CHECK_FALSE(stated_request_rate("request_rate=0"));
  CHECK_FALSE(stated_request_rate("concurrency 25"));
  const ServerLimits l = stated_server_limits(
      "VALID under p99 TTFT and TPOT limits (ttft_latency 2000000000 ns, "
      "tpot_latency 200000000 ns)");
  CHECK(l.ttft_p99_s == Approx(2.0));
  CHECK(l.tpot_p99_s == Approx(0.2));
  CHECK(stated_server_limits("no limits").ttft_p99_s == 0);
  const ServerLimits ms =
      stated_server_limits("loadgen constraints ttft_latency 2 s and tpot_latency 200 ms (p99)");
  CHECK(ms.ttft_p99_s == Approx(2.0));
  CHECK(ms.tpot_p99_s == Approx(0.2));
  CHECK(stated_request_rate("8 TP1 engines at ~100 samples/s offered load, 29228 tok/s") == Approx(100));
  CHECK(stated_sequence_cap("use_fp8=True, gpu_batch_size={'llama2-70b': 896}") == 896);
  CHECK(stated_sequence_cap("gpu_batch_size not stated") == 0);
  CHECK(stated_sequence_cap("use_fp8=True, gpu_batch_size=896. KV-cache dtype not stated") == 896);
  CHECK(stated_sequence_cap("tensor_parallel_size: 1, max_num_seqs=650, max_num_batched_tokens=40960") ==
        650);
  CHECK(stated_sequence_cap("max_num_seqs: 2700") == 2700);
  CHECK(stated_sequence_cap("max_num_seqs=None") == 0);
  CHECK(stated_token_budget("max_num_seqs=650, max_num_batched_tokens=40960.") == 40960);
  CHECK(stated_token_budget("max_num_batched_tokens: 512") == 512);
  CHECK(stated_token_budget("no limit") == 0);
  // vLLM's own flags, as a serve command in the notes writes them.
  CHECK(stated_sequence_cap("vllm serve ... --max-num-batched-tokens 512 --max-num-seqs 256") == 256);
  CHECK(stated_token_budget("vllm serve ... --max-num-batched-tokens 512 --max-num-seqs 256") == 512);
}

TEST_CASE("load rows: a metric's statistic suffix", "[validate-data][load][normalise]") {
  const auto s = [](const std::string& m) {
    const MetricStatistic x = split_statistic(m);
    return x.base + "|" + x.statistic;
  };
  CHECK(s("ttft_p99") == "ttft|p99");
  CHECK(s("tpot_p90") == "tpot|p90");
  CHECK(s("itl_median") == "itl|p50");
  CHECK(s("e2e_latency_p50") == "e2e_latency|p50");
  CHECK(s("tpot_mean") == "tpot|mean");
  CHECK(s("ttft") == "ttft|mean");
  CHECK(s("throughput_out") == "throughput_out|mean");
  CHECK(s("throughput_out_p99") == "throughput_out_p99|mean");  // only latencies take a statistic
  CHECK(s("ttft_pmax") == "ttft_pmax|mean");
}

TEST_CASE("load rows: which rows the plan sends to the request simulator", "[validate-data][load]") {
  const Aliases& a = tessera::test::shipped_aliases();
  // Under a rate, lengths stated: an open loop at that rate.
  const RowPlan rate = plan_row(under_rate(2.0), a, kRoot);
  REQUIRE(rate.mapped);
  CHECK(rate.measure == Measure::under_load);
  CHECK(rate.rate_per_s == Approx(2.0));
  CHECK(rate.load_metric == "ttft");
  CHECK(rate.statistic == "mean");
  CHECK(rate.group == kGroupUnderLoad);
  CHECK(rate.max_sequences == kLoadRowDefaultSequences);  // NIM: no engine cap in the frameworks file
  // A percentile at a stated concurrency: a closed loop of the row's clients.
  DataRow p99 = nim_row();
  p99.metric = "ttft_p99";
  const RowPlan closed = plan_row(p99, a, kRoot);
  REQUIRE(closed.mapped);
  CHECK(closed.measure == Measure::under_load);
  CHECK(closed.statistic == "p99");
  CHECK(closed.rate_per_s == 0);
  CHECK(closed.batch * closed.config.dp == 25);
  // A P50 of a static batch is its one value: the steady-state prediction, not the simulator.
  DataRow fixed = tessera::test::synthetic_decode_row("tpot_p50", "12", "ms");
  const RowPlan f = plan_row(fixed, a, kRoot);
  REQUIRE(f.mapped);
  CHECK(f.measure == Measure::decode_step);
  // A P99 of a static batch: no stream to read it from.
  fixed.metric = "tpot_p99";
  CHECK(plan_row(fixed, a, kRoot).reason ==
        "statistic p99 of a static batch: no request rate or concurrency of clients stated");
  // A percentile the simulator does not keep, and a percentile of a throughput.
  DataRow p95 = nim_row();
  p95.metric = "ttft_p95";
  CHECK(plan_row(p95, a, kRoot).reason.rfind("statistic p95 of ttft: the simulator reports", 0) == 0);
  // Lengths varying per sample with no dataset rule: listed with the reason.
  DataRow server = under_rate(3.0);
  server.input_len = "";
  server.output_len = "";
  server.notes = "Server scenario (Poisson arrivals, target_qps 3.0); an unnamed dataset";
  const RowPlan s = plan_row(server, a, kRoot);
  CHECK_FALSE(s.mapped);
  CHECK(s.reason.find("no `datasets:` rule") != std::string::npos);
  // An MLPerf Server throughput needs its limits.
  DataRow mlperf = under_rate(3.0, "mlperf_server_throughput");
  mlperf.unit = "tok/s";
  CHECK(plan_row(mlperf, a, kRoot).reason ==
        "MLPerf Server throughput without its latency limits in the notes (ttft_latency, tpot_latency)");
  mlperf.notes +=
      " (ttft_latency 2000000000 ns, tpot_latency 200000000 ns), gpu_batch_size={'llama2-70b': 64}";
  const RowPlan cap = plan_row(mlperf, a, kRoot);
  REQUIRE(cap.mapped);
  CHECK(cap.load_metric == "capacity");
  CHECK(cap.limit_tpot_p99_s == Approx(0.2));
  CHECK(cap.max_sequences == 64);
}

TEST_CASE("load rows: the MLPerf Server rows of the 2024-2026 file go to the simulator",
          "[validate-data][load]") {
  // Rows 262-266: 8 x H200, Llama-2-70B, target_qps 101 (the throughput within the P99 limits of
  // 2 s and 200 ms, then mean and P99 TTFT and TPOT at ~100 samples/s offered load).
  std::map<std::string, std::string> want = {
      {"262", "capacity"}, {"263", "ttft"}, {"264", "ttft"}, {"265", "tpot"}, {"266", "tpot"}};
  for (const DataRow& r : read_measurements(kRoot + "/data/measurements-2024-2026.csv")) {
    const auto w = want.find(r.id);
    if (w == want.end()) continue;
    INFO(r.id);
    const RowPlan p = plan_row(r, tessera::test::shipped_aliases(), kRoot);
    REQUIRE(p.mapped);
    CHECK(p.measure == Measure::under_load);
    CHECK(p.load_metric == w->second);
    CHECK(p.input == 222);  // the datasets rule's OpenOrca means
    CHECK(p.output == 294);
    // 262 states the engine's gpu_batch_size=896; 263-266 state none: TensorRT-LLM's default cap.
    CHECK(p.max_sequences == (r.id == "262" ? 896 : 2048));
    if (r.id == "262") CHECK(p.limit_tpot_p99_s == Approx(0.2));
    if (r.id != "262") CHECK(p.rate_per_s == Approx(100));
    want.erase(w);
  }
  CHECK(want.empty());
}

TEST_CASE("load rows: predictions grow with the load and the JSON says what was simulated",
          "[validate-data][load]") {
  // A near-idle stream: TTFT is the prefill of 5000 tokens alone (the concurrency-1 row's
  // simulated value, test_simulated_rows: 404.51 ms), within the little overlap Poisson gaps allow.
  const auto low = validate({under_rate(0.05), under_rate(0.5), under_rate(0.9)});
  const ModelReport& rep = one(low);
  REQUIRE(rep.rows.size() == 3);
  CHECK(rep.rows[0].predicted == Approx(404.51).epsilon(0.03));
  CHECK(rep.rows[0].predicted <= rep.rows[1].predicted);
  CHECK(rep.rows[1].predicted <= rep.rows[2].predicted);
  for (const RowResult& r : rep.rows) {
    CHECK(r.under_load);
    CHECK(r.load.measured == 2048);  // 2 x the engine's 1,024 sequences x 1 replica (load_row_stream)
    CHECK(r.load.kv_blocks > 0);
  }
  // The P99 of the same stream is above its mean.
  DataRow tail = under_rate(0.9, "ttft_p99");
  const auto t = validate({tail});
  REQUIRE(one(t).rows.size() == 1);
  CHECK(one(t).rows[0].predicted > rep.rows[2].predicted);
  // Output tokens/s under a rate the engine keeps up with: the offered rate times the OSL.
  DataRow thr = under_rate(0.5, "throughput_out");
  thr.unit = "tok/s";
  const auto th = validate({thr});
  REQUIRE(one(th).rows.size() == 1);
  CHECK(one(th).rows[0].predicted == Approx(0.5 * 500).epsilon(0.1));

  const nlohmann::json j = reports_document(low);
  const nlohmann::json& u = j["rows"][0]["under_load"];
  for (const char* key :
       {"statistic", "rate_per_s", "clients", "max_sequences", "token_budget", "kv_blocks", "block_tokens",
        "requests_measured", "capacity_probes", "engine_rule", "lengths_from"})
    CHECK(u.contains(key));
  CHECK(u["rate_per_s"].get<double>() == Approx(0.05));
}

TEST_CASE("load rows: MLPerf Server's capacity is monotone in its limits", "[validate-data][load]") {
  auto row = [](const std::string& tpot_ns) {
    DataRow r = under_rate(1.0, "mlperf_server_throughput");
    r.unit = "tok/s";
    r.notes = "Server scenario (Poisson arrivals), VALID (ttft_latency 2000000000 ns, tpot_latency " +
              tpot_ns + " ns)";
    return r;
  };
  const auto reports = validate({row("200000000"), row("40000000")});
  const ModelReport& rep = one(reports);
  REQUIRE(rep.rows.size() == 2);
  const RowResult& loose = rep.rows[0];
  const RowResult& tight = rep.rows[1];
  CHECK(loose.load.probes > 2);
  CHECK(loose.load.rate_per_s > 0);
  // The completed tokens/s at the capacity: the rate times the OSL, within the search's tolerance.
  CHECK(loose.predicted == Approx(loose.load.rate_per_s * 500).epsilon(0.1));
  CHECK(tight.load.rate_per_s <= loose.load.rate_per_s);
  CHECK(tight.predicted <= loose.predicted);
  // A steady state, not a burst: well above the capacity, the same stream misses the TTFT limit.
  DataRow over = under_rate(1.5 * loose.load.rate_per_s, "ttft_p99");
  const auto o = validate({over});
  REQUIRE(one(o).rows.size() == 1);
  CHECK(one(o).rows[0].predicted > 2000);  // ms: above the 2 s limit the capacity met
}

TEST_CASE("load rows: a steady state's requests and the bounds on a row's stream", "[validate-data][load]") {
  const Aliases& a = tessera::test::shipped_aliases();
  RowPlan p = plan_row(under_rate(2.0), a, kRoot);
  REQUIRE(p.mapped);
  // An open loop: a warm-up of C and 2C measured, C the engine's 1,024 sequences x 1 replica.
  CHECK(load_row_stream(p).warmup == 1024);
  CHECK(load_row_stream(p).measured == 2048);
  p.max_sequences = 8;
  CHECK(load_row_stream(p).warmup == 200);     // a tenth of 2,000 at least
  CHECK(load_row_stream(p).measured == 2000);  // 2,000 at least
  // A closed loop of N clients: 2N warm-up, max(4,000, 2N) measured for a percentile.
  DataRow p99 = nim_row();
  p99.metric = "ttft_p99";
  const RowPlan closed = plan_row(p99, a, kRoot);
  REQUIRE(closed.mapped);
  CHECK(load_row_stream(closed).warmup == 50);
  CHECK(load_row_stream(closed).measured == 4000);
  // Bounds: the request scenarios' rate and clients, and 1e6 simulated requests.
  CHECK(plan_row(under_rate(2e9), a, kRoot).reason == "a request rate above the simulator's 1e9 requests/s");
  DataRow many = p99;
  many.batch = "2000000";
  many.notes = "concurrency of 2000000";
  CHECK(plan_row(many, a, kRoot).reason == "a closed loop of 2000000 clients: more than the simulator's 1e6");
  many.batch = "600000";
  many.notes = "concurrency of 600000";
  CHECK(plan_row(many, a, kRoot).reason.find("simulated requests, more than 1e6") != std::string::npos);
  // The concurrency the notes state must be the row's batch.
  DataRow other = p99;
  other.batch = "24";
  CHECK(plan_row(other, a, kRoot).reason ==
        "the concurrency the notes state (25) is not the row's batch (24)");
  // A batch and a rate: the rate is the stream, for the mean as for a percentile.
  DataRow both = under_rate(0.5);
  both.batch = "25";
  const RowPlan b = plan_row(both, a, kRoot);
  REQUIRE(b.mapped);
  CHECK(b.measure == Measure::under_load);
  CHECK(b.rate_per_s == Approx(0.5));
}

TEST_CASE("load rows: their count is a documented limit checked before any prediction",
          "[validate-data][load]") {
  struct Restore {
    Limits saved = current_limits();
    ~Restore() { set_limits(saved); }
  } restore;
  Limits tight = restore.saved;
  tight.validate_load_rows = 2;
  set_limits(tight);
  try {
    validate({under_rate(0.1), under_rate(0.2), under_rate(0.3)});
    FAIL("expected the limit to refuse three rows under a load");
  } catch (const InputError& e) {
    const std::string what = e.what();
    CHECK(what.find("3 rows under a load") != std::string::npos);
    CHECK(what.find("validate.load_rows") != std::string::npos);
  }
  // At the limit the rows run.
  CHECK(one(validate({under_rate(0.1), under_rate(0.2)})).rows.size() == 2);
}

}  // namespace test_load_rows
