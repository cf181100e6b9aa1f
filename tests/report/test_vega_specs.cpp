// report/charts/vega_specs.*: the charts read only the --json result; hand-made results, hand-computed
// values.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "report/charts/vega_specs.hpp"

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
      {"id": 0, "config": "cp=1 tp=2", "cp": 1, "tp": 2, "pp": 1, "dp": 1, "ep": 1, "objectives": {"latency_s": 0.5, "pes": 2},
       "latency_s": 0.5, "pes": 2, "feasible": true},
      {"id": 1, "config": "cp=1 tp=4", "cp": 1, "tp": 4, "pp": 1, "dp": 1, "ep": 1, "objectives": {"latency_s": 0.25, "pes": 4},
       "latency_s": 0.25, "pes": 4, "feasible": true},
      {"id": 2, "config": "cp=1 tp=8", "cp": 1, "tp": 8, "pp": 1, "dp": 1, "ep": 1, "objectives": {"latency_s": null, "pes": 8},
       "latency_s": null, "pes": 8, "feasible": false}],
    "points_total": 3, "points_sampled": false,
    "best": {"id": 1, "cp": 1, "tp": 4, "pp": 1, "dp": 1, "ep": 1, "kv_shard_mode": "split", "ffn_shard_scope": "TP"},
    "pareto": [{"id": 1, "cp": 1, "tp": 4, "pp": 1, "dp": 1, "ep": 1, "kv_shard_mode": "split", "ffn_shard_scope": "TP",
                "objectives": {"latency_s": 0.25, "pes": 4}, "latency_s": 0.25, "pes": 4}],
    "top": [{"id": 1, "cp": 1, "tp": 4, "pp": 1, "dp": 1, "ep": 1, "kv_shard_mode": "split", "ffn_shard_scope": "TP",
             "stages": [{"name": "attn.qkv", "count": 80, "visible_s": 0.001, "bound": "memory", "compute_s": 0.0001,
                         "memory_s": 0.001, "comm_s": 0},
                        {"name": "tp.allreduce", "count": 160, "visible_s": 0.0005, "bound": "comm",
                         "compute_s": 0, "memory_s": 0, "comm_s": 0.0005}]}],
    "breakdowns": {"1": [{"name": "attn.qkv", "count": 80, "compute_s": 0, "memory_s": 0.001,
                          "communication_s": 0, "overhead_s": 0},
                         {"name": "tp.allreduce", "count": 160, "compute_s": 0, "memory_s": 0,
                          "communication_s": 0.0004, "overhead_s": 0.0001}],
                   "0": [{"name": "attn.qkv", "count": 80, "compute_s": 0, "memory_s": 0.002,
                          "communication_s": 0, "overhead_s": 0}]}
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

// The axes are titled with the chosen objective's metric and unit, never "the
// objective chosen below": the channel names the first choice, the axis title follows the
// select (a signal over every objective).
TEST_CASE("run scatter axes are titled with the objective's metric and unit") {
  const json spec = search_charts(run_result())[0].spec;
  const json& x = spec.at("layer")[0].at("encoding").at("x");
  const json& y = spec.at("layer")[0].at("encoding").at("y");
  CHECK(x.at("title") == "latency (s), log scale");
  CHECK(y.at("title") == "pes, log scale");  // no unit: the name alone
  CHECK(x.at("axis").at("title").at("signal") ==
        "x_objective === \"latency_s\" ? \"latency (s), log scale\" : \"pes, log scale\"");
  CHECK(y.at("axis").at("title").at("signal") ==
        "y_objective === \"latency_s\" ? \"latency (s), log scale\" : \"pes, log scale\"");
  CHECK(spec.dump().find("chosen below") == std::string::npos);
}

TEST_CASE("stage breakdown rows are each part times occurrences filtered by the chosen id") {
  const auto charts = search_charts(run_result());
  const tessera::ChartSpec& c = charts[1];
  CHECK(c.picks_from == "pareto");
  const json& spec = c.spec;
  const json& rows = spec.at("data").at("values");
  // "0" before "1" (the object's key order); zero parts left out.
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].at("id") == "0");
  CHECK(rows[0].at("time_s").get<double>() == Approx(0.16));  // 0.002 s x 80
  CHECK(rows[1].at("id") == "1");
  CHECK(rows[1].at("stage") == "attn.qkv");
  CHECK(rows[1].at("part") == "memory");
  CHECK(rows[1].at("time_s").get<double>() == Approx(0.08));  // 0.001 s x 80
  CHECK(rows[2].at("part") == "communication");
  CHECK(rows[2].at("time_s").get<double>() == Approx(0.064));  // 0.0004 s x 160
  CHECK(rows[3].at("part") == "overhead");
  CHECK(rows[3].at("time_s").get<double>() == Approx(0.016));  // 0.0001 s x 160
  CHECK(rows[1].at("config") == "cp=1 tp=4 pp=1 dp=1 ep=1 kv=split ffn=TP");
  // The parameter the page sets, the best's id at first, and the filter by it.
  CHECK(spec.at("params")[0] == json({{"name", "chosen"}, {"value", "1"}}));
  CHECK(spec.at("transform")[0].at("filter") == "datum.id === chosen");
  const json& meta = spec.at("usermeta").at("tessera_pick");
  CHECK(meta.at("best") == "1");
  CHECK(meta.at("with_breakdown") == json({"0", "1"}));
  CHECK(meta.at("carry").get<std::string>().find("the top 1 ") != std::string::npos);
  // The scatter's rows carry the ids the page sets.
  CHECK(charts[0].spec.at("layer")[1].at("data").at("values")[0].at("id") == 1);
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

TEST_CASE("serve breakdown has the prefill and decode steps of aggregated points and pairs") {
  const json r = json::parse(R"({
    "scenario": "s", "workload": {"mode": "serve"}, "slo": {},
    "best": {"id": 7, "tp": 8, "batch": 4},
    "frontier": [{"id": 7, "tp": 8, "batch": 4, "tokens_per_s_per_user": 40, "tokens_per_s_per_pe": 100}],
    "top": [{"id": 7, "tp": 8, "batch": 4}],
    "breakdowns": {"7": {"prefill": [{"name": "attn.qkv", "count": 80, "compute_s": 0.01, "memory_s": 0,
                                      "communication_s": 0, "overhead_s": 0}],
                         "decode": [{"name": "attn.qkv", "count": 80, "compute_s": 0, "memory_s": 0.001,
                                     "communication_s": 0, "overhead_s": 0}]}},
    "disaggregated": {"frontier": [{"id": "disagg-0", "prefill": {"config": {"tp": 2}, "instances": 2, "batch": 1},
                                    "decode": {"config": {"tp": 8}, "instances": 3, "batch": 64},
                                    "tokens_per_s_per_user": 50, "tokens_per_s_per_pe": 120}],
                      "breakdowns": {"disagg-0": {"prefill": [{"name": "ffn.up", "count": 80, "compute_s": 0.02,
                                                               "memory_s": 0, "communication_s": 0,
                                                               "overhead_s": 0}],
                                                  "decode": []}}}
  })");
  const auto charts = serve_charts(r);
  REQUIRE(charts.size() == 2);
  CHECK(charts[1].picks_from == "frontier");
  const json& rows = charts[1].spec.at("data").at("values");
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].at("stage") == "prefill: attn.qkv");
  CHECK(rows[0].at("time_s").get<double>() == Approx(0.8));  // 0.01 s x 80
  CHECK(rows[1].at("stage") == "decode: attn.qkv");
  CHECK(rows[1].at("config") == "cp= tp=8 pp= dp= ep= b=4");
  CHECK(rows[2].at("id") == "disagg-0");
  CHECK(rows[2].at("time_s").get<double>() == Approx(1.6));  // 0.02 s x 80
  CHECK(rows[2].at("config").get<std::string>().find("prefill 2x [") == 0);
  CHECK(charts[1].spec.at("params")[0].at("value") == "7");
  CHECK(charts[1].spec.at("usermeta").at("tessera_pick").at("with_breakdown") == json({"7", "disagg-0"}));
  // The disaggregated frontier's rows carry the pair's id.
  CHECK(charts[0].spec.at("layer")[3].at("data").at("values")[0].at("id") == "disagg-0");
}
