// report/vega_specs.*: the charts read only the --json result; hand-made results, hand-computed
// values.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "report/vega_specs.hpp"

using nlohmann::json;
using tessera::search_charts;
using tessera::serve_charts;

namespace {

json run_result() {
  return json::parse(R"({
    "scenario": "s", "version": "0.1.0", "model": "M", "machine": "X", "latency_model": "roofline",
    "search": "exhaustive",
    "objectives": [{"name": "latency", "key": "latency_s", "direction": "minimize", "unit": "s"},
                   {"name": "pes", "key": "pes", "direction": "minimize", "unit": ""}],
    "points": [
      {"config": "cp=1 tp=2", "cp": 1, "tp": 2, "pp": 1, "dp": 1, "ep": 1, "objectives": {"latency_s": 0.5, "pes": 2},
       "latency_s": 0.5, "pes": 2, "feasible": true},
      {"config": "cp=1 tp=4", "cp": 1, "tp": 4, "pp": 1, "dp": 1, "ep": 1, "objectives": {"latency_s": 0.25, "pes": 4},
       "latency_s": 0.25, "pes": 4, "feasible": true},
      {"config": "cp=1 tp=8", "cp": 1, "tp": 8, "pp": 1, "dp": 1, "ep": 1, "objectives": {"latency_s": null, "pes": 8},
       "latency_s": null, "pes": 8, "feasible": false}],
    "points_total": 3, "points_sampled": false,
    "pareto": [{"cp": 1, "tp": 4, "pp": 1, "dp": 1, "ep": 1, "kv_shard_mode": "split", "ffn_shard_scope": "TP",
                "objectives": {"latency_s": 0.25, "pes": 4}, "latency_s": 0.25, "pes": 4}],
    "top": [{"cp": 1, "tp": 4, "pp": 1, "dp": 1, "ep": 1, "kv_shard_mode": "split", "ffn_shard_scope": "TP",
             "stages": [{"name": "attn.qkv", "count": 80, "visible_s": 0.001, "bound": "memory", "compute_s": 0.0001,
                         "memory_s": 0.001, "comm_s": 0},
                        {"name": "tp.allreduce", "count": 160, "visible_s": 0.0005, "bound": "comm",
                         "compute_s": 0, "memory_s": 0, "comm_s": 0.0005}]}]
  })");
}

const json& layer_values(const json& spec, std::size_t layer) {
  return spec.at("layer").at(layer).at("data").at("values");
}

}  // namespace

TEST_CASE("run charts are the Pareto scatter and the stage breakdown") {
  const auto charts = search_charts(run_result());
  REQUIRE(charts.size() == 2);
  CHECK(charts[0].id == "pareto");
  CHECK(charts[1].id == "stages");
  CHECK(charts[0].note.find("All 3 valid configurations.") == 0);
}

TEST_CASE("run scatter has every point then the frontier and offers every objective as an axis") {
  const json spec = search_charts(run_result())[0].spec;
  REQUIRE(spec.at("layer").size() == 2);
  CHECK(layer_values(spec, 0).size() == 3);
  REQUIRE(layer_values(spec, 1).size() == 1);
  CHECK(layer_values(spec, 1)[0].at("config") == "cp=1 tp=4 pp=1 dp=1 ep=1 kv=split ffn=TP");
  const json& params = spec.at("params");
  CHECK(params[0].at("name") == "x_objective");
  CHECK(params[0].at("value") == "latency_s");
  CHECK(params[0].at("bind").at("options") == json({"latency_s", "pes"}));
  CHECK(params[1].at("value") == "pes");
  CHECK(params[2].at("name") == "colour_knob");
}

TEST_CASE("stage breakdown rows are visible time times occurrences per stage") {
  const json spec = search_charts(run_result())[1].spec;
  const json& rows = spec.at("data").at("values");
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].at("stage") == "attn.qkv");
  CHECK(rows[0].at("time_s").get<double>() == Approx(0.08));  // 0.001 s x 80
  CHECK(rows[1].at("time_s").get<double>() == Approx(0.08));  // 0.0005 s x 160
  CHECK(rows[1].at("bound") == "comm");
  CHECK(rows[0].at("config") == "#1  cp=1 tp=4 pp=1 dp=1 ep=1 kv=split ffn=TP");
}

TEST_CASE("a sampled result says so under the scatter") {
  json r = run_result();
  r["points_total"] = 123456;
  r["points_sampled"] = true;
  CHECK(search_charts(r)[0].note.find("A seeded random sample of 3 of the 123456 valid configurations") == 0);
}

TEST_CASE("a result without points draws the frontier alone") {
  json r = run_result();
  r.erase("points");
  const auto charts = search_charts(r);
  CHECK(charts[0].spec.at("layer").size() == 1);
  CHECK(charts[0].note.find("no `points` list") != std::string::npos);
}

TEST_CASE("serve chart draws the points the frontiers and the TPOT SLO at one over TPOT") {
  const json r = json::parse(R"({
    "scenario": "s", "workload": {"mode": "serve"}, "slo": {"tpot_s": 0.05, "ttft_s": 1.0,
    "min_tokens_per_s_per_user": null},
    "points": [{"config": "tp=8", "batch": 4, "tokens_per_s_per_user": 40, "tokens_per_s_per_pe": 100,
                "feasible": true}],
    "frontier": [{"tp": 8, "batch": 4, "tokens_per_s_per_user": 40, "tokens_per_s_per_pe": 100}],
    "disaggregated": {"frontier": [{"prefill": {"config": {"tp": 2}, "instances": 2, "batch": 1},
                                    "decode": {"config": {"tp": 8}, "instances": 3, "batch": 64},
                                    "tokens_per_s_per_user": 50, "tokens_per_s_per_pe": 120}]}
  })");
  REQUIRE(tessera::is_serve_result(r));
  const auto charts = serve_charts(r);
  REQUIRE(charts.size() == 1);
  const json& layers = charts[0].spec.at("layer");
  // points, aggregated line + points, disaggregated line + points, SLO rule + label
  REQUIRE(layers.size() == 7);
  CHECK(layers[0].at("data").at("values")[0].at("config") == "tp=8 b=4");
  CHECK(layers[3].at("data").at("values")[0].at("config").get<std::string>().find("prefill 2x [") == 0);
  const json& slo = layers[5].at("data").at("values");
  REQUIRE(slo.size() == 1);
  CHECK(slo[0].at("x").get<double>() == Approx(20.0));  // 1 / 0.05 s
  CHECK(slo[0].at("label") == "TPOT SLO 50 ms");
  CHECK(charts[0].note.find("disaggregated frontier") != std::string::npos);
}
