#pragma once
// The stage breakdown of the configuration picked in a scatter (docs/report.md): run's of the
// point hovered or clicked in the Pareto scatter, serve's prefill and decode steps of the
// serving point picked in the frontier chart, each starting at the best. Only the configurations
// the result carries a breakdown for have one; the page shows the others' totals.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "report/charts/vega_json.hpp"
#include "report/charts/vega_specs.hpp"

namespace tessera {

// run: the breakdown of the configuration chosen in the Pareto scatter (nullopt without
// `breakdowns` or a best).
std::optional<ChartSpec> search_breakdown_chart(const nlohmann::json& result);
// serve: the prefill and decode steps of the serving point chosen in the frontier chart (nullopt
// without breakdowns, aggregated or disaggregated, or a point to start at).
std::optional<ChartSpec> serve_breakdown_chart(const nlohmann::json& result);

namespace vega {

// A disaggregated pair as the serve scatter draws it (vega_specs.cpp) and its breakdown is
// labelled: its id, the two pools' instances, configurations and batches, its serving numbers.
inline nlohmann::json disagg_row(const nlohmann::json& pair) {
  const nlohmann::json& pre = field(pair, "prefill");
  const nlohmann::json& dec = field(pair, "decode");
  nlohmann::json row = nlohmann::json::object();
  row["id"] = field(pair, "id");
  row["config"] = "prefill " + text_of(field(pre, "instances")) + "x [" + config_label(field(pre, "config")) +
                  " b=" + text_of(field(pre, "batch")) + "] + decode " + text_of(field(dec, "instances")) +
                  "x [" + config_label(field(dec, "config")) + " b=" + text_of(field(dec, "batch")) + "]";
  for (const char* k : {"tokens_per_s_per_user", "tokens_per_s_per_pe", "ttft_s", "tpot_s", "pes"})
    row[k] = field(pair, k);
  return row;
}

}  // namespace vega

}  // namespace tessera
