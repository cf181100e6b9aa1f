// `tessera explain --json` as a chart: each stage's visible time per step split into the part
// its compute or memory traffic keeps the PE busy, the communication it exposes and the
// remaining fixed overhead (docs/physics.md: visible = max(compute, memory) + comm + overhead).
#include "report/charts/vega_json.hpp"
#include "report/charts/vega_marks.hpp"
#include "report/charts/vega_specs.hpp"
#include "studies/json/stage_parts.hpp"

namespace tessera {
namespace {

using nlohmann::json;
using vega::array_field;
using vega::field;
using vega::number_tip;
using vega::text_tip;

double number(const json& v) { return v.is_number() ? v.get<double>() : 0.0; }

// One row per (stage, part) with a non-zero time: the four parts of visible_s x count.
json explain_rows(const json& result) {
  const std::string config = vega::config_label(field(result, "config"));
  json rows = json::array();
  std::size_t order = 0;
  for (const json& s : array_field(result, "stages")) {
    const double count = number(field(s, "count"));
    const double visible = number(field(s, "visible_s"));
    const StageParts sp = stage_parts(number(field(s, "compute_s")), number(field(s, "memory_s")),
                                      number(field(s, "comm_s")), visible);
    const std::pair<const char*, double> parts[] = {{"compute", sp.compute_s},
                                                    {"memory", sp.memory_s},
                                                    {"communication", sp.communication_s},
                                                    {"overhead", sp.overhead_s}};
    std::size_t part_order = 0;
    for (const auto& [part, seconds] : parts) {
      ++part_order;
      if (seconds <= 0) continue;
      rows.push_back({{"stage", field(s, "name")},
                      {"order", order},
                      {"part", part},
                      {"part_order", part_order},
                      {"time_s", seconds * count},
                      {"count", count},
                      {"bound", field(s, "bound")},
                      {"config", config},
                      {"compute_s", field(s, "compute_s")},
                      {"memory_s", field(s, "memory_s")},
                      {"comm_s", field(s, "comm_s")},
                      {"visible_s", field(s, "visible_s")}});
    }
    ++order;
  }
  return rows;
}

}  // namespace

std::vector<ChartSpec> explain_charts(const json& result) {
  json rows = explain_rows(result);
  if (rows.empty()) return {};
  json spec = vega::ranked_bars(
      640, 18, std::move(rows), vega::ranked_band("stage", "order"),
      {{"field", "time_s"},
       {"type", "quantitative"},
       {"stack", "zero"},
       {"title", "visible time per step (s): per occurrence x occurrences"}},
      {{"color", vega::part_colour()},
       {"order", {{"field", "part_order"}}},
       {"tooltip",
        json::array({text_tip("config", "configuration"), text_tip("stage", "stage"),
                     text_tip("part", "part"), number_tip("time_s", "time per step (s)"),
                     number_tip("count", "occurrences"), text_tip("bound", "bound by"),
                     number_tip("compute_s", "compute (s, each)"), number_tip("memory_s", "memory (s, each)"),
                     number_tip("comm_s", "communication (s, each)"),
                     number_tip("visible_s", "visible (s, each)")})}});
  const json& totals = field(result, "totals");
  std::string note = "Configuration " + vega::config_label(field(result, "config")) +
                     ". Each bar: a stage's visible (critical-path) time per step; compute or memory: the "
                     "busy time max(compute, memory), coloured by the larger; communication: exposed "
                     "communication; overhead: the rest.";
  if (field(totals, "latency_s").is_number())
    note += " Step latency " + vega::short_number(field(totals, "latency_s")) + " s.";
  return {{"stages", "Stage breakdown", note, std::move(spec)}};
}

}  // namespace tessera
