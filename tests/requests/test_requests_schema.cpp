// serving.requests in a scenario (scenario/schemas/requests_schema.cpp, scenario/trace_file.cpp): every
// arrival kind and length distribution read into the stream, defaults from the workload, the
// four trace formats, and bad input refused at FILE:LINE:COL.
#include <catch2/catch.hpp>
#include <string>

#include "scenario/scenario_loader.hpp"
#include "tessera/error.hpp"

using namespace tessera;
using namespace tessera::requests;

namespace {

const std::string kDir = std::string(TESSERA_SOURCE_DIR) + "/tests/requests";

Scenario with_requests(const std::string& block) {
  const std::string src = TESSERA_SOURCE_DIR;
  const std::string text = "schema_version: 1\nkind: scenario\nname: requests\nmodel: " + src +
                           "/models/llama3.1-8b.yaml\nmachine: " + src +
                           "/machines/dgx-h100.yaml\nworkload: {mode: serve, input: 2K, output: 256}\n"
                           "serving:\n  requests:\n" +
                           block;
  return load_scenario_text(text, "requests.yaml", kDir, LoadOptions{});
}

std::string first_error(const std::string& block) {
  try {
    with_requests(block);
  } catch (const InputErrors& e) {
    return e.diagnostics().front().format();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a request stream is read with its defaults from the workload") {
  const Scenario s = with_requests("    rate: 20\n");
  const RequestsSpec& r = s.serving.requests;
  CHECK(r.given);
  CHECK(r.stream.arrival.kind == ArrivalKind::poisson);
  CHECK(r.stream.arrival.rate_per_s == 20);
  CHECK(r.stream.input.kind == LengthKind::fixed);
  CHECK(r.stream.input.value == 2048);
  CHECK(r.stream.output.value == 256);
  CHECK(r.stream.requests == 1000);
  CHECK(r.stream.warmup == 100);  // a tenth
  CHECK(r.stream.seed == 1);
  CHECK(r.router == Router::round_robin);
  CHECK_FALSE(with_requests("    rate: 1\n").serving.requests.stream.trace);
}

TEST_CASE("every arrival kind and length distribution is read") {
  Scenario s = with_requests(
      "    arrival: gamma\n    rate: 5\n    cv: 2.5\n    count: 500\n    warmup: 0\n    seed: 9\n"
      "    router: least_outstanding\n"
      "    input: {distribution: lognormal, median: 1500, sigma: 0.4, max: 8K}\n"
      "    output: {distribution: table, table: {128: 1, 1K: 3}}\n"
      "    prefix: {groups: 4, tokens: 512}\n");
  const StreamSpec& st = s.serving.requests.stream;
  CHECK(st.arrival.kind == ArrivalKind::gamma);
  CHECK(st.arrival.cv == 2.5);
  CHECK(st.requests == 500);
  CHECK(st.warmup == 0);
  CHECK(st.seed == 9);
  CHECK(s.serving.requests.router == Router::least_outstanding);
  CHECK(st.input.kind == LengthKind::lognormal);
  CHECK(st.input.median == 1500);
  CHECK(st.input.max == 8192);
  REQUIRE(st.output.table.size() == 2);
  CHECK(st.output.table[1].first == 1024);
  CHECK(st.output.table[1].second == 3);
  CHECK(st.prefix.groups == 4);
  CHECK(st.prefix.tokens == 512);
  s = with_requests(
      "    arrival: concurrency\n    concurrency: 32\n    input: {distribution: uniform, min: 100, "
      "max: 200}\n");
  CHECK(s.serving.requests.stream.arrival.concurrency == 32);
  CHECK(s.serving.requests.stream.input.min == 100);
  CHECK(s.serving.requests.stream.input.max == 200);
}

TEST_CASE("the four trace formats are read by their columns") {
  SECTION("tessera") {
    const Scenario s = with_requests("    arrival: trace\n    trace: traces/tessera.csv\n");
    const auto& rows = *s.serving.requests.stream.trace;
    REQUIRE(rows.size() == 4);
    CHECK(rows[1].time_s == 0.25);
    CHECK(rows[1].input == 1024);
    CHECK(rows[1].prefix_id == -1);
    CHECK(rows[2].prefix_id == 1);
    CHECK(s.serving.requests.stream.warmup == 0);  // a tenth of 4
  }
  SECTION("azure") {
    const Scenario s =
        with_requests("    arrival: trace\n    trace: traces/azure.csv\n    trace_format: azure\n");
    const auto& rows = *s.serving.requests.stream.trace;
    REQUIRE(rows.size() == 4);
    CHECK(rows[1].time_s - rows[0].time_s == Approx(1.5));
    CHECK(rows[3].time_s - rows[0].time_s == Approx(10.0));
    CHECK(rows[2].output == 90);
  }
  SECTION("burstgpt: a failed request is left out and counted") {
    const Scenario s =
        with_requests("    arrival: trace\n    trace: traces/burstgpt.csv\n    trace_format: burstgpt\n");
    const auto& rows = *s.serving.requests.stream.trace;
    REQUIRE(rows.size() == 2);
    CHECK(s.serving.requests.trace_skipped == 1);
    CHECK(rows[1].time_s == 120);
    CHECK(rows[1].input == 400);
  }
  SECTION("mooncake: milliseconds") {
    const Scenario s =
        with_requests("    arrival: trace\n    trace: traces/mooncake.jsonl\n    trace_format: mooncake\n");
    const auto& rows = *s.serving.requests.stream.trace;
    REQUIRE(rows.size() == 3);
    CHECK(rows[2].time_s == Approx(2.5));
    CHECK(rows[2].output == 800);
  }
}

TEST_CASE("bad request streams are refused where they are written") {
  // (FILE:LINE:COL on files: tests/bad-inputs/requests-*.expect)
  CHECK(first_error("    rate: -2\n").find("serving.requests.rate: expected a number in (0, 1e+09]") !=
        std::string::npos);
  CHECK(first_error("    arrival: poisson\n").find("serving.requests.rate: required with arrival: poisson") !=
        std::string::npos);
  CHECK(first_error("    rate: 1\n    concurrency: 4\n").find("only with arrival: concurrency") !=
        std::string::npos);
  CHECK(first_error("    rate: 1\n    input: {distribution: uniform, min: 10}\n")
            .find("serving.requests.input.max: required with distribution: uniform") != std::string::npos);
  CHECK(first_error("    rate: 1\n    input: {distribution: uniform, min: 10, max: 5}\n")
            .find("serving.requests.input.max: expected at least min (10)") != std::string::npos);
  CHECK(first_error("    rate: 1\n    arival: trace\n").find("did you mean 'arrival'") != std::string::npos);
  CHECK(first_error("    rate: 1\n    count: 10\n    warmup: 10\n")
            .find("serving.requests.warmup: expected fewer than the 10 requests") != std::string::npos);
  CHECK(first_error("    rate: 1\n    input: {distribution: table, table: {128: 0}}\n")
            .find("expected a weight above 0") != std::string::npos);
  // Priority classes: a class given twice under two spellings, a weight whose sum would overflow.
  CHECK(first_error("    rate: 1\n    priorities: {0: 1, 00: 2}\n")
            .find("serving.requests.priorities.00: 0 is given twice in serving.requests.priorities") !=
        std::string::npos);
  CHECK(first_error("    rate: 1\n    priorities: {0: 1e308, 1: 1e308}\n")
            .find("serving.requests.priorities.0: expected a weight above 0 and at most 1e15") !=
        std::string::npos);
  CHECK(first_error("    rate: 1\n    priorities: {-1: 1}\n").find("serving.requests.priorities.-1") !=
        std::string::npos);
}
