// The serving study's reports: the text fits 100 columns and says what it must; JSON and CSV
// carry every figure in SI units, identically for any thread count.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "report/study_text/serve_report.hpp"
#include "report/text/text_table.hpp"
#include "serve_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::string text_of(const Session& s, const ServeResult& r) {
  std::ostringstream os;
  print_serve_text(os, describe_study(s), r, serve_point_notes(s, r));
  return os.str();
}

std::string csv_of(const Session& s, unsigned threads) {
  std::ostringstream os;
  const StudyDescription d = describe_study(s);
  write_serve_csv_header(os, d);
  ServeStudyOptions o;
  o.threads = threads;
  o.on_point = [&](const ServeRecord& r) { write_serve_csv_row(os, d, r); };
  run_serve_study(s, o);
  return os.str();
}

}  // namespace

TEST_CASE("serve report: the text names the workload and SLO and the best point and fits 100 columns") {
  const Scenario sc = serve_scenario();
  const Session session(sc, registry());
  const StudyRun run = study(session, 2, 10);
  const std::string text = text_of(session, run.result);
  if (std::getenv("SHOW")) std::cout << text;
  for (const std::string& l : lines(text)) {
    INFO(l);
    CHECK(display_width(l) <= 100);
  }
  CHECK(text.find("ISL 4096 prompt tokens, OSL 1024 output tokens") != std::string::npos);
  CHECK(text.find("TTFT <= 1 s, TPOT <= 50 ms (SLOs apply to means)") != std::string::npos);
  CHECK(text.find("best       cp=1,tp=") != std::string::npos);  // explain --config syntax
  const ServeRecord& best = *run.result.best();
  CHECK(text.find("           batch " + std::to_string(best.point.batch) + " per replica, token budget ") !=
        std::string::npos);
  CHECK(text.find("replica") != std::string::npos);
  CHECK(text.find("Pareto frontier over throughput pes: " + std::to_string(run.result.frontier.size()) +
                  " points") != std::string::npos);
  CHECK(text.find("Top 10 by throughput") != std::string::npos);
  const ServeCounts& c = run.result.counts;
  CHECK(text.find(std::to_string(c.configurations) + " configurations x 6 serving points: " +
                  std::to_string(c.evaluated) + " evaluated\n           " + std::to_string(c.runnable) +
                  " runnable: " + std::to_string(c.within_slo) + " within the SLO, " +
                  std::to_string(c.slo_miss) + " missing it\n") != std::string::npos);
  CHECK(text.find("not runnable: KV does not fit " + std::to_string(c.kv_overflow) + ", unsupported 0") !=
        std::string::npos);
}

TEST_CASE("serve report: the closest miss is stated when nothing meets the SLO") {
  Scenario sc = serve_scenario();
  sc.serving.slo.ttft_s = 1e-3;  // 1 ms to the first token of a 4K prompt: impossible
  const Session session(sc, registry());
  const StudyRun run = study(session);
  REQUIRE(run.result.closest_miss);
  const std::string text = text_of(session, run.result);
  CHECK(text.find("no point meets the SLO; the closest miss is " +
                  fixed(run.result.closest_miss->slo_ratio, 2) + "x the SLO (" +
                  run.result.closest_miss->reason + "):") != std::string::npos);
  // TTFT / 1 ms: the ratio is the closest miss's TTFT in milliseconds.
  CHECK(run.result.closest_miss->slo_ratio == Approx(run.result.closest_miss->metrics.ttft_s / 1e-3));
  CHECK(run.result.closest_miss->reason.rfind("TTFT ", 0) == 0);
  CHECK(text.find("miss       cp=1,tp=") != std::string::npos);  // explain --config syntax
  const nlohmann::json j = serve_json(session, run.result);
  CHECK(j["best"].is_null());
  CHECK(j["closest_miss"]["verdict"] == "slo");
  CHECK(j["closest_miss"]["ttft_s"].get<double>() > 1e-3);
  CHECK(j["closest_miss"]["reason"] == run.result.closest_miss->reason);
}

TEST_CASE("serve report: the JSON records the scenario workload SLO machine plugins version and counts") {
  const Scenario sc = serve_scenario();
  const Session session(sc, registry());
  const StudyRun run = study(session);
  const nlohmann::json j = serve_json(session, run.result);
  CHECK(j["scenario"] == "llama3.1-70b-serve-test");
  CHECK(j["workload"]["input_tokens"] == 4096);
  CHECK(j["workload"]["output_tokens"] == 1024);
  CHECK(j["slo"]["ttft_s"] == 1.0);
  CHECK(j["slo"]["tpot_s"] == 0.05);
  CHECK(j["slo"]["e2e_s"].is_null());
  CHECK(j["slo"]["applies_to"] == "means");
  CHECK(j["plugins"]["serving"]["name"] == "static");
  CHECK(j["plugins"]["latency"] == "calibrated");
  CHECK(j["machine"]["pe"] == "gpu");
  CHECK(j["machine"]["name"] == "DGX-H100");
  CHECK(j["version"].is_string());
  const ServeCounts& c = run.result.counts;
  CHECK(j["counts"]["evaluated"] == c.evaluated);
  CHECK(j["counts"]["within_slo"] == c.within_slo);
  CHECK(j["counts"]["infeasible"]["kv_overflow"] == c.kv_overflow);
  const nlohmann::json& b = j["best"];
  REQUIRE(b.is_object());
  CHECK(b["ttft_s"].get<double>() <= 1.0);
  CHECK(b["tpot_s"].get<double>() <= 0.05);
  CHECK(b["feasible"] == true);
  CHECK(b["replicas"] == b["dp"]);
  CHECK(b["objectives"].contains("throughput_tok_s"));
  CHECK(j["frontier"].size() == run.result.frontier.size());
  CHECK(j["top"].size() == run.result.top.size());
}

TEST_CASE("serve report: the CSV has one row per evaluated point and is the same on 1 and 2 threads") {
  const Scenario sc = serve_scenario();
  const Session session(sc, registry());
  const std::string one = csv_of(session, 1);
  const std::string two = csv_of(session, 2);
  CHECK(one == two);
  const auto rows = lines(one);
  const StudyRun run = study(session);
  CHECK(rows.size() == run.result.counts.evaluated + 1);
  CHECK(rows[0].rfind("cp,tp,pp,dp,ep,", 0) == 0);
  CHECK(rows[0].find(",batch,token_budget_tokens,replicas,pes,ttft_s,tpot_s,tpot_tail_s,") !=
        std::string::npos);
  CHECK(rows[0].substr(rows[0].size() - 42) == "runnable,feasible,verdict,slo_ratio,reason");
  std::size_t kv = 0;
  for (const std::string& r : rows) kv += r.find(",kv_overflow,") != std::string::npos;
  CHECK(kv == run.result.counts.kv_overflow);
  // The JSON of a study on 1 thread and on 2 is the same.
  const StudyRun a = study(session, 1, 20, -1, 8192), b = study(session, 2, 20, -1, 8192);
  CHECK(serve_json(session, a.result).dump() == serve_json(session, b.result).dump());
}
