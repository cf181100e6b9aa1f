// The breakdown chart of the configuration picked in a scatter (report/charts/picked_breakdown.hpp).
#include "report/charts/picked_breakdown.hpp"

#include <optional>
#include <string>
#include <vector>

#include "report/charts/vega_json.hpp"
#include "report/charts/vega_marks.hpp"

namespace tessera {
namespace {

using nlohmann::json;
using vega::array_field;
using vega::config_label;
using vega::disagg_row;
using vega::field;
using vega::text_of;

// ---- the breakdown chosen in a scatter --------------------------------------------------

// The label of each configuration that carries a breakdown, by id (as a string).
void label_ids(json& labels, const json& entries, bool serve) {
  for (const json& e : entries) {
    const json& id = field(e, "id");
    if (id.is_null()) continue;
    std::string label = config_label(e);
    if (serve) label += vega::serve_point_suffix(e);
    labels[id.is_string() ? id.get<std::string>() : id.dump()] = label;
  }
}

// What the page needs to link the breakdown to the scatter (html_report.cpp's script): the
// default id, the ids with a breakdown, the totals to show for a point without one.
json pick_meta(const std::string& best, const json& labels, const json& breakdowns, const json& extra_ids,
               const std::string& carry, const std::vector<std::pair<std::string, std::string>>& totals) {
  json ids = json::array();
  for (const auto& [id, b] : breakdowns.items()) ids.push_back(id);
  for (const json& id : extra_ids) ids.push_back(id);
  json t = json::array();
  for (const auto& [f, title] : totals) t.push_back({f, title});
  return {{"best", best},
          {"best_label", field(labels, best.c_str())},
          {"with_breakdown", ids},
          {"carry", carry},
          {"totals", t}};
}

std::string carry_text(const json& result, const char* frontier) {
  return "the best, the " + std::string(frontier) + " and the top " +
         std::to_string(array_field(result, "top").size()) + " (at most 100 configurations)";
}

std::string id_text(const json& id) { return id.is_string() ? id.get<std::string>() : id.dump(); }

}  // namespace

// run: the breakdown of the configuration chosen in the Pareto scatter (default: the best).
std::optional<ChartSpec> search_breakdown_chart(const json& result) {
  const json& breakdowns = field(result, "breakdowns");
  const json& best_id = field(field(result, "best"), "id");
  if (!breakdowns.is_object() || breakdowns.empty() || best_id.is_null()) return std::nullopt;
  json labels = json::object();
  label_ids(labels, array_field(result, "pareto"), false);
  label_ids(labels, array_field(result, "top"), false);
  label_ids(labels, json::array({field(result, "best")}), false);
  json rows = json::array();
  for (const auto& [id, stages] : breakdowns.items())
    vega::add_breakdown_rows(rows, id, text_of(field(labels, id.c_str())), "", stages);
  json spec = vega::breakdown_spec(std::move(rows), id_text(best_id));
  spec["usermeta"]["tessera_pick"] =
      pick_meta(id_text(best_id), labels, breakdowns, json::array(), carry_text(result, "Pareto frontier"),
                {{"latency_s", "latency (s)"}, {"pes", "PEs"}});
  ChartSpec c{"stages", "Stage breakdown of the chosen configuration",
              "Hover a point of the Pareto scatter to see its stage breakdown, click it to keep it "
              "(at first: the best). Each bar: a stage's visible (critical-path) time per step, "
              "stacked: compute or memory (the busy time max(compute, memory), coloured by the larger), "
              "exposed communication and the remaining overhead. Only " +
                  carry_text(result, "Pareto frontier") + " carry one; other points show their totals.",
              std::move(spec)};
  c.picks_from = "pareto";
  return c;
}

// serve: the prefill and decode steps of the serving point chosen in the frontier chart.
std::optional<ChartSpec> serve_breakdown_chart(const json& result) {
  const json& breakdowns = field(result, "breakdowns");
  const json& disagg = field(field(result, "disaggregated"), "breakdowns");
  json best_id = field(field(result, "best"), "id");
  if (best_id.is_null() && disagg.is_object() && !disagg.empty()) best_id = disagg.begin().key();
  const bool any = (breakdowns.is_object() && !breakdowns.empty()) || (disagg.is_object() && !disagg.empty());
  if (!any || best_id.is_null()) return std::nullopt;
  json labels = json::object();
  label_ids(labels, array_field(result, "frontier"), true);
  label_ids(labels, array_field(result, "top"), true);
  label_ids(labels, json::array({field(result, "best")}), true);
  for (const json& pair : array_field(field(result, "disaggregated"), "frontier"))
    if (!field(pair, "id").is_null()) labels[id_text(field(pair, "id"))] = disagg_row(pair)["config"];
  json rows = json::array();
  json disagg_ids = json::array();
  const auto add = [&](const json& map) {
    if (!map.is_object()) return;
    for (const auto& [id, steps] : map.items()) {
      const std::string label = text_of(field(labels, id.c_str()));
      vega::add_breakdown_rows(rows, id, label, "prefill", field(steps, "prefill"));
      vega::add_breakdown_rows(rows, id, label, "decode", field(steps, "decode"));
    }
  };
  add(breakdowns);
  add(disagg);
  if (disagg.is_object())
    for (const auto& [id, steps] : disagg.items()) disagg_ids.push_back(id);
  json spec = vega::breakdown_spec(std::move(rows), id_text(best_id));
  spec["usermeta"]["tessera_pick"] =
      pick_meta(id_text(best_id), labels, breakdowns.is_object() ? breakdowns : json::object(), disagg_ids,
                carry_text(result, "frontiers"),
                {{"tokens_per_s_per_user", "tokens/s/user"},
                 {"tokens_per_s_per_pe", "tokens/s/PE"},
                 {"ttft_s", "TTFT (s)"},
                 {"tpot_s", "TPOT (s)"},
                 {"pes", "PEs"}});
  ChartSpec c{"stages", "Prefill and decode steps of the chosen serving point",
              "Hover a point of the chart above to see its steps' stage breakdown, click it to keep it "
              "(at first: the best). prefill: one prompt's prefill (batch 1, the whole prompt); decode: "
              "the decode step at the point's batch and the mean context (ISL + OSL/2); for a "
              "disaggregated pair, the prefill pool's prefill at its batch and the decode pool's decode "
              "step. Stacked as in explain: compute or memory, exposed communication, overhead. Only " +
                  carry_text(result, "frontiers") + " carry one; other points show their totals.",
              std::move(spec)};
  c.picks_from = "frontier";
  return c;
}

}  // namespace tessera
