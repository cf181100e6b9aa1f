// `tessera serve` with serving.requests (studies/entries/serve_entry.cpp): the best point is simulated
// under the stream; its percentiles are in the --json document (`simulation`, SI units) and in
// the text (report/study_text/simulation_report.cpp), and they are those of simulate_configuration on the
// same point.
#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include "analysis/serving/serve_study.hpp"
#include "report/study_text/simulation_report.hpp"
#include "search_fixture.hpp"
#include "studies/documents/simulation_document.hpp"
#include "studies/entries/serve_entry.hpp"

using namespace tessera;

namespace {

studies::ScenarioOptions shipped(const char* name) {
  studies::ScenarioOptions o;
  o.path = test::scenario_path(name);
  return o;
}

studies::ServeStudyResult served(const studies::StudyContext& study) {
  studies::ServeOptions so;
  so.threads = 2;
  so.document = true;
  so.simulate_top = 0;  // the capacity search: test_capacity.cpp
  return studies::serve(study, so);
}

}  // namespace

TEST_CASE("serve simulates the best point of a scenario with a request stream") {
  const studies::StudyContext study(shipped("llama3.1-70b-serve-4k1k-h100-poisson.yaml"), {},
                                    studies::StudyKind::serve);
  const studies::ServeStudyResult r = served(study);
  const ServeRecord* best = r.answer.aggregated.best();
  REQUIRE(best);
  REQUIRE(r.simulated);
  CHECK(r.simulated->config == best->config);
  CHECK(r.simulated->point.batch == best->point.batch);
  const requests::SimResult& sim = r.simulated->result;
  CHECK(sim.sent == 2000);
  CHECK(sim.measured == 1800);  // the warm-up: a tenth
  CHECK(sim.rejected == 0);
  // At 1 request/s far below capacity: nearly no queue, TTFT a few prefills, throughput the
  // arrival rate (1 request of 1,024 tokens a second, within its Poisson noise).
  CHECK(sim.ttft.percentile[0] < 1.0);
  CHECK(sim.requests_per_s == Approx(1.0).epsilon(0.1));
  CHECK(sim.output_tokens_per_s == Approx(1024).epsilon(0.1));
  // The same point simulated directly gives the same figures.
  const RequestsSpec& spec = study.scenario().serving.requests;
  const requests::SimResult direct =
      requests::simulate_configuration(study.session(), best->config, best->point, spec, [&] {
        requests::SimOptions s;
        s.slo = study.scenario().serving.slo.targets;
        return s;
      }());
  CHECK(direct.ttft.percentile == sim.ttft.percentile);
  CHECK(direct.goodput_requests_per_s == sim.goodput_requests_per_s);
  // The document: percentiles in seconds, named with their unit.
  const nlohmann::json& j = r.document.at("simulation");
  CHECK(j.at("ttft").at("p99_s").get<double>() == sim.ttft.percentile[2]);
  CHECK(j.at("tpot").at("p90_s").get<double>() == sim.tpot.percentile[1]);
  CHECK(j.at("stream").at("arrival") == "poisson");
  CHECK(j.at("requests_measured") == 1800);
  // The text.
  std::ostringstream text;
  print_simulation(text, *r.simulated, spec, 0);
  CHECK(text.str().find("Poisson arrivals at 1.000 requests/s; 2000 sent, 1800 measured") !=
        std::string::npos);
  CHECK(text.str().find("TTFT") != std::string::npos);
  CHECK(text.str().find("P99") != std::string::npos);
}

TEST_CASE("serve without a request stream simulates nothing") {
  const studies::StudyContext study(shipped("llama3.1-70b-serve-4k1k-h100.yaml"), {},
                                    studies::StudyKind::serve);
  const studies::ServeStudyResult r = served(study);
  CHECK_FALSE(r.simulated);
  CHECK_FALSE(r.document.contains("simulation"));
}

TEST_CASE("the served simulation is the same at any thread count and checks the scenario's percentile SLOs") {
  const studies::StudyContext study(shipped("llama3.1-70b-serve-4k1k-h100-poisson.yaml"), {},
                                    studies::StudyKind::serve);
  studies::ServeOptions one;
  one.threads = 1;
  one.document = true;
  one.simulate_top = 0;
  studies::ServeOptions three = one;
  three.threads = 3;
  const studies::ServeStudyResult a = studies::serve(study, one);
  const studies::ServeStudyResult b = studies::serve(study, three);
  REQUIRE(a.document.contains("simulation"));
  CHECK(a.document.at("simulation") == b.document.at("simulation"));
  // The scenario states {ttft: {p99: 1 s}, tpot: {p90: 50 ms}}: each checked on its statistic.
  const nlohmann::json& slo = a.document.at("simulation").at("slo");
  REQUIRE(slo.size() == 2);
  CHECK(slo[0].at("metric") == "ttft");
  CHECK(slo[0].at("statistic") == "p99");
  CHECK(slo[0].at("value_s").get<double>() == a.simulated->result.ttft.percentile[2]);
  CHECK(slo[1].at("statistic") == "p90");
  CHECK(slo[1].at("value_s").get<double>() == a.simulated->result.tpot.percentile[1]);
  CHECK(a.document.at("simulation").at("slo_met") == true);
  CHECK(a.document.at("slo").at("targets").size() == 2);
}

TEST_CASE("the inter-token gaps of one iteration count in their own requests' batches") {
  // 25 closed-loop clients: every iteration ends a gap of each running request, and a prompt's
  // prefill stalls them all together. The ITL's batch means are then those of the requests of
  // each batch (about the TPOT, 40 ms), not one batch holding a whole iteration's stall, so the
  // mean's 95 % interval is narrow, as the TPOT's is.
  const studies::StudyContext study(shipped("llama3.3-70b-serve-5k500-h100-concurrency.yaml"), {},
                                    studies::StudyKind::serve);
  const studies::ServeStudyResult r = served(study);
  REQUIRE(r.simulated);
  const requests::SimResult& sim = r.simulated->result;
  CHECK(sim.itl.mean == Approx(sim.tpot.mean).epsilon(0.02));
  CHECK(sim.itl.mean_half_width < 0.1 * sim.itl.mean);
  CHECK(sim.itl.mean_half_width < 3 * sim.tpot.mean_half_width);
}

TEST_CASE("the simulated best point is the same for every unit size and thread count of the serving study") {
  const studies::StudyContext study(shipped("llama3.1-70b-serve-4k1k-h100-poisson.yaml"), {},
                                    studies::StudyKind::serve);
  const Scenario& sc = study.scenario();
  std::optional<nlohmann::json> first;
  for (std::uint64_t unit : {1, 13, 100})
    for (unsigned threads : {1u, 3u}) {
      ServeStudyOptions o;
      o.unit_size = unit;
      o.threads = threads;
      const ServeResult res = run_serve_study(study.session(), o);
      const ServeRecord* best = res.best();
      REQUIRE(best);
      const requests::SimulatedPoint sim = requests::simulate_point(
          study.session(), best->config, best->point, sc.serving.requests, sc.serving.slo);
      const nlohmann::json j = studies::simulation_json(sim, sc.serving.requests, study.session().machine());
      if (!first)
        first = j;
      else
        CHECK(j == *first);
    }
  REQUIRE(first);
  CHECK(first->at("requests_measured") == 1800);
}

// The acceptance of the scheduling rules (docs/physics.md §12.5 "Scheduling rules"): the shipped
// Poisson scenario at 2 requests/s under vLLM, SGLang and TensorRT-LLM runs each framework's rules
// and prints different TTFT percentiles, naming the rules and counting what they did.
TEST_CASE("serve under three frameworks runs their scheduling rules and says which") {
  std::map<std::string, requests::SimulatedPoint> sim;
  for (const char* f : {"vllm", "sglang", "tensorrt-llm"}) {
    studies::ScenarioOptions o = shipped("llama3.1-70b-serve-4k1k-h100-poisson.yaml");
    o.load.set = {std::string("framework=") + f, "serving.requests.rate=2"};
    const studies::StudyContext study(o, {}, studies::StudyKind::serve);
    const studies::ServeStudyResult r = served(study);
    REQUIRE(r.simulated);
    sim[f] = *r.simulated;
    std::ostringstream text;
    print_simulation(text, *r.simulated, study.scenario().serving.requests, 120);
    INFO(text.str());
    CHECK(text.str().find(std::string("scheduler ") +
                          (f == std::string("vllm")     ? "vLLM 0.19.0 rules: running first"
                           : f == std::string("sglang") ? "SGLang 0.5.9 rules: prefill first"
                                                        : "TensorRT-LLM 1.1 rules: running first")) !=
          std::string::npos);
    if (f == std::string("sglang")) CHECK(text.str().find("rules at work: ") != std::string::npos);
  }
  const auto p99 = [&](const char* f) { return sim.at(f).result.ttft.percentile[2]; };
  CHECK(p99("vllm") != p99("sglang"));
  CHECK(p99("vllm") != p99("tensorrt-llm"));
  CHECK(p99("sglang") != p99("tensorrt-llm"));
  CHECK(sim.at("sglang").rules.order == requests::StepOrder::prefill_first);
  CHECK(sim.at("sglang").result.rule_events.decodes_held > 0);
  CHECK(sim.at("vllm").result.rule_events.decodes_held == 0);
  CHECK(sim.at("tensorrt-llm").preemption == requests::Preemption::no_evict);
}
