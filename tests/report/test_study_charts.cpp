// report/*_charts.cpp: the charts of explain, sensitivity, explore, compare and validate-data,
// built from hand-made --json results; hand-computed values.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "report/charts/vega_specs.hpp"

using nlohmann::json;
using namespace tessera;

namespace {

const json* find_row(const json& rows, const std::string& stage, const std::string& part) {
  for (const json& r : rows)
    if (r.at("stage") == stage && r.at("part") == part) return &r;
  return nullptr;
}

}  // namespace

TEST_CASE("result kinds are told apart by their fields") {
  CHECK(result_kind(json::parse(R"({"scenario":"s","pareto":[],"top":[]})")) == ResultKind::run);
  CHECK(result_kind(json::parse(R"({"scenario":"s","workload":{"mode":"serve"}})")) == ResultKind::serve);
  CHECK(result_kind(json::parse(R"({"scenario":"s","stages":[],"totals":{}})")) == ResultKind::explain);
  CHECK(result_kind(json::parse(R"({"scenario":"s","best":{},"parallelism":[]})")) ==
        ResultKind::sensitivity);
  CHECK(result_kind(json::parse(R"({"scenario":"s","axes":[],"points":[]})")) == ResultKind::explore);
  CHECK(result_kind(json::parse(R"({"scenario":"s","axes":[],"mode":"serve"})")) ==
        ResultKind::explore_serve);
  CHECK(result_kind(json::parse(R"({"scenario":"s","models":["a"],"kendall":[]})")) == ResultKind::compare);
  CHECK(result_kind(json::parse(R"({"version":"v","models":[{"latency":"a","rows":[]}]})")) ==
        ResultKind::validate_data);
  CHECK(std::string(result_kind_command(ResultKind::validate_data)) == "tessera validate-data");
}

TEST_CASE("explain splits each stage's visible time into compute or memory communication and overhead") {
  // attn.qkv: memory-bound, visible 3 = max(1, 2) + comm 0.5 + overhead 0.5, 10 occurrences.
  // tp.reduce: pure communication overlapped: comm 4, visible 1 -> communication 1 (no busy time).
  const json r =
      json::parse(R"({"scenario":"s","model":{"name":"M"},"machine":"X","totals":{"latency_s":0.04},
    "config":{"cp":1,"tp":4,"pp":1,"dp":1,"ep":1,"kv_shard_mode":"split","ffn_shard_scope":"TP"},
    "stages":[{"name":"attn.qkv","count":10,"compute_s":1,"memory_s":2,"comm_s":0.5,"visible_s":3,"bound":"memory"},
              {"name":"tp.reduce","count":2,"compute_s":0,"memory_s":0,"comm_s":4,"visible_s":1,"bound":"comm"}]})");
  const auto charts = explain_charts(r);
  REQUIRE(charts.size() == 1);
  CHECK(charts[0].id == "stages");
  const json& rows = charts[0].spec.at("data").at("values");
  CHECK(rows.size() == 4);  // memory, communication, overhead of attn.qkv; communication of tp.reduce
  REQUIRE(find_row(rows, "attn.qkv", "memory"));
  CHECK(find_row(rows, "attn.qkv", "memory")->at("time_s") == Approx(20.0));
  CHECK(find_row(rows, "attn.qkv", "communication")->at("time_s") == Approx(5.0));
  CHECK(find_row(rows, "attn.qkv", "overhead")->at("time_s") == Approx(5.0));
  CHECK_FALSE(find_row(rows, "attn.qkv", "compute"));
  CHECK(find_row(rows, "tp.reduce", "communication")->at("time_s") == Approx(2.0));
  CHECK(rows[0].at("config") == "cp=1 tp=4 pp=1 dp=1 ep=1 kv=split ffn=TP");
  CHECK(charts[0].spec.at("encoding").at("color").at("scale").at("domain") ==
        json({"compute", "memory", "communication", "overhead"}));
}

TEST_CASE("sensitivity draws one panel per knob and the tornado of both elasticities") {
  const json r = json::parse(R"({"scenario":"s","best":{"cp":1,"tp":4,"pp":1,"dp":1,"ep":1},
    "parallelism":[{"knob":"tp","baseline":4,"values":[
       {"value":2,"feasible":false,"latency_s":null,"latency_if_it_fit_s":0.5,"reason":"does not fit"},
       {"value":4,"feasible":true,"latency_s":0.25,"latency_if_it_fit_s":0.25,"reason":""},
       {"value":64,"feasible":false,"latency_s":null,"latency_if_it_fit_s":null,"reason":"needs 64 pes"}]}],
    "hardware":[{"knob":"machine.pe.hbm.bandwidth","label":"HBM bandwidth","rank":1,"elasticity_fixed":-0.5,
                 "elasticity_reoptimised":-0.4}]})");
  const auto charts = sensitivity_charts(r);
  REQUIRE(charts.size() == 2);
  CHECK(charts[0].id == "knobs");
  CHECK(charts[0].spec.at("facet").at("field") == "knob");
  const json& rows = charts[0].spec.at("data").at("values");
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].at("config") == "cp=1 tp=2 pp=1 dp=1 ep=1");
  CHECK(rows[0].at("latency_s") == 0.5);
  CHECK(rows[0].at("status") == "infeasible (latency if it fit)");
  CHECK(rows[2].at("reason") == "needs 64 pes");
  CHECK(rows[1].at("baseline") == true);
  CHECK(charts[0].spec.at("spec").at("layer").size() == 4);  // feasible, two kinds of infeasible, best
  CHECK(charts[1].id == "tornado");
  CHECK_FALSE(charts[1].has_configs);
  const json& bars = charts[1].spec.at("data").at("values");
  REQUIRE(bars.size() == 2);
  CHECK(bars[0].at("kind") == "parallelism fixed");
  CHECK(bars[0].at("elasticity") == -0.5);
  CHECK(bars[1].at("kind") == "re-optimised");
  CHECK(bars[1].at("knob") == "HBM bandwidth");
}

TEST_CASE("explore draws the grid as heat maps the latency cost frontier and the tornado") {
  const json r = json::parse(R"({"scenario":"s","axes":[
      {"path":"machine.pe.hbm.bandwidth","unit":"B/s","values":[1e12,2e12]},
      {"path":"machine.levels.cube.link_bw","unit":"B/s","values":[4e11]},
      {"path":"machine.pe.flops.bf16","unit":"FLOP/s","values":[6.4e13]}],
    "points":[
      {"hardware":{"machine.pe.hbm.bandwidth":1e12,"machine.levels.cube.link_bw":4e11,"machine.pe.flops.bf16":6.4e13},
       "feasible":true,"cost_USD":100,"pareto":true,"best":{"cp":1,"tp":8,"pp":1,"dp":1,"ep":1,"latency_s":0.002}},
      {"hardware":{"machine.pe.hbm.bandwidth":2e12,"machine.levels.cube.link_bw":4e11,"machine.pe.flops.bf16":6.4e13},
       "feasible":false,"cost_USD":200,"pareto":false}],
    "pareto":[0],
    "hardware_sensitivity":[{"knob":"k","label":"K","rank":1,"elasticity_fixed":0.1,"elasticity_reoptimised":0.1}]})");
  const auto charts = explore_charts(r);
  REQUIRE(charts.size() == 3);
  CHECK(charts[0].id == "grid");
  CHECK(charts[1].id == "cost_frontier");
  CHECK(charts[2].id == "tornado");
  const json& cells = charts[0].spec.at("data").at("values");
  REQUIRE(cells.size() == 2);
  CHECK(cells[0].at("h0") == "1 TB/s");
  CHECK(cells[0].at("h1") == "400 GB/s");
  CHECK(cells[0].at("panel") == "pe.flops.bf16 64 TFLOP/s");
  CHECK(cells[0].at("config") == "cp=1 tp=8 pp=1 dp=1 ep=1");
  CHECK(cells[0].at("label") == "0.002");
  CHECK(cells[1].at("config") == "nothing feasible");
  CHECK(cells[1].at("label") == "-");
  // The frontier layers hold the Pareto point only; the scatter every point with a latency.
  const json& layers = charts[1].spec.at("layer");
  REQUIRE(layers.size() == 3);
  CHECK(layers[0].at("data").at("values").size() == 1);
  CHECK(layers[2].at("data").at("values")[0].at("cost_USD") == 100);
}

// Panels (values of the third and later axes) in the order of their values, not of
// their labels: 300 GB/s, 600 GB/s, 1.2 TB/s (lexically 1.2 TB/s would come first).
TEST_CASE("explore orders the hardware panels by value") {
  json r = json::parse(R"({"scenario":"s","axes":[
      {"path":"machine.pe.hbm.bandwidth","unit":"B/s","values":[1e12]},
      {"path":"machine.pe.flops.bf16","unit":"FLOP/s","values":[6.4e13]},
      {"path":"machine.levels.cube.link_bw","unit":"B/s","values":[1.2e12,3e11,6e11]}],
    "points":[]})");
  for (double bw : {1.2e12, 3e11, 6e11})
    r["points"].push_back({{"hardware",
                            {{"machine.pe.hbm.bandwidth", 1e12},
                             {"machine.pe.flops.bf16", 6.4e13},
                             {"machine.levels.cube.link_bw", bw}}},
                           {"feasible", true},
                           {"best", {{"tp", 8}, {"latency_s", 0.002}}}});
  const auto charts = explore_charts(r);
  REQUIRE(!charts.empty());
  const json& spec = charts[0].spec;
  CHECK(spec.at("facet").at("sort") == json({{"field", "panel_order"}, {"op", "min"}}));
  const json& cells = spec.at("data").at("values");
  REQUIRE(cells.size() == 3);
  CHECK(cells[0].at("panel") == "levels.cube.link_bw 1.2 TB/s");
  CHECK(cells[0].at("panel_order") == 2);
  CHECK(cells[1].at("panel") == "levels.cube.link_bw 300 GB/s");
  CHECK(cells[1].at("panel_order") == 0);
  CHECK(cells[2].at("panel_order") == 1);
}

TEST_CASE("compare draws latencies side by side rank vs rank with tau-b and where the winner changes") {
  const json r = json::parse(R"({"scenario":"s","models":["a","b"],"objective":"latency",
    "stages":[{"optimum_of":["a"],"config":{"cp":1,"tp":2,"pp":1,"dp":1,"ep":1},
               "by_model":{"a":{"latency_s":1,"rank":1},"b":{"latency_s":3,"rank":2}}}],
    "points":[{"cp":1,"tp":2,"pp":1,"dp":1,"ep":1,"rank":{"a":1,"b":2},"latency_s":{"a":1,"b":3}},
              {"cp":1,"tp":4,"pp":1,"dp":1,"ep":1,"rank":{"a":2,"b":1},"latency_s":{"a":2,"b":2}}],
    "points_total":2,"points_sampled":false,
    "kendall":[{"a":"a","b":"b","tau_b":-1,"n":2}],
    "winner_changes":[{"a":"a","b":"b","best_a":"tp=2","best_b":"tp=4","differing_knobs":["tp: 2 vs 4"],
                       "regret_of_a_best_under_b":0.5,"regret_of_b_best_under_a":1}]})");
  const auto charts = compare_charts(r);
  REQUIRE(charts.size() == 3);
  CHECK(charts[0].id == "latencies");
  const json& bars = charts[0].spec.at("data").at("values");
  REQUIRE(bars.size() == 2);
  CHECK(bars[0].at("optimum") == "optimum of a");
  CHECK(bars[1].at("latency_s") == 3);
  CHECK(charts[1].id == "ranks");
  CHECK(charts[1].note.find("All 2 feasible configurations") == 0);
  const json& params = charts[1].spec.at("params");
  CHECK(params[0].at("value") == "a");
  CHECK(params[1].at("value") == "b");
  const json& tau = charts[1].spec.at("layer")[1].at("data").at("values");
  REQUIRE(tau.size() == 2);  // both orders of the pair
  CHECK(tau[0].at("label") == "Kendall tau-b -1 over 2 configurations");
  const json& cells = charts[2].spec.at("data").at("values");
  REQUIRE(cells.size() == 2);
  CHECK(cells[0].at("winner") == "changes");
  CHECK(cells[0].at("regret") == 0.5);
  CHECK(cells[1].at("regret") == 1);
  CHECK(cells[0].at("differing") == "tp: 2 vs 4");
}

TEST_CASE("validate-data draws predicted vs measured and the error per source and metric family") {
  const json r = json::parse(R"({"version":"v","models":[{"latency":"roofline",
    "summary":{"by_source":{"src-1":{"label":"Source one"}}},
    "rows":[{"id":"1","source":"src-1","metric":"op_latency:gemm","unit":"ms","measured":2,"predicted":1,"ape":0.5},
            {"id":"2","source":"src-2","metric":"ttft","unit":"ms","measured":10,"predicted":40,"ape":3}]}]})");
  const auto charts = validation_charts(r);
  REQUIRE(charts.size() == 2);
  CHECK(charts[0].id == "predicted");
  const json& layers = charts[0].spec.at("layer");
  REQUIRE(layers.size() == 2);
  // y = x from the smallest to the largest value of either axis.
  CHECK(layers[0].at("data").at("values") ==
        json::parse(R"([{"measured":1,"predicted":1},{"measured":40,"predicted":40}])"));
  const json& rows = layers[1].at("data").at("values");
  CHECK(rows[0].at("family") == "op_latency");
  CHECK(rows[0].at("source") == "Source one");
  CHECK(rows[1].at("source") == "src-2");
  CHECK(charts[0].spec.at("layer")[1].at("encoding").at("x").at("scale").at("type") == "log");
  CHECK(charts[1].id == "errors");
  CHECK(charts[1].spec.at("transform")[0].at("aggregate")[0].at("op") == "median");
}

TEST_CASE("a result with by_scope gets each scope's charts with prefixed ids") {
  const json r =
      json::parse(R"({"scenario":"s","scope":"full","objectives":[{"name":"latency","key":"latency_s"}],
    "pareto":[{"cp":1,"tp":2,"pp":1,"dp":1,"ep":1,"objectives":{"latency_s":2},"latency_s":2}],
    "by_scope":{"attention":{"scenario":"s","scope":"attention","objectives":[{"name":"latency","key":"latency_s"}],
      "pareto":[{"cp":1,"tp":4,"pp":1,"dp":1,"ep":1,"objectives":{"latency_s":1},"latency_s":1}]}}})");
  const auto charts = report_charts(r);
  REQUIRE(charts.size() == 2);
  CHECK(charts[0].id == "full-pareto");
  CHECK(charts[0].scope == "full");
  CHECK(charts[0].title == "Pareto frontier (scope full)");
  CHECK(charts[1].id == "attention-pareto");
  CHECK(charts[1].scope == "attention");
  CHECK(charts[1].spec.at("layer")[0].at("data").at("values")[0].at("latency_s") == 1);
}
