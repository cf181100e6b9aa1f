#pragma once
// The charts of an HTML report as Vega-Lite 5 specifications, built from a study's `--json`
// result alone (never from the study's objects), so a saved result draws the same charts
// (`tessera report RESULT.json --html FILE`). docs/report.md lists the fields each reads.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tessera/export.hpp"

namespace tessera {

struct ChartSpec {
  std::string id;     // the view's name on `window.tesseraViews` and its element's id suffix
  std::string title;  // shown above the chart
  std::string note;   // one line under the title ("" = none)
  nlohmann::json spec;
  // Whether hovering a mark shows a configuration (the browser test checks the tooltip names
  // one); false for charts of hardware knobs or measurements.
  bool has_configs = true;
  // The scope the chart is of ("" = the result has one): a result with `by_scope` (report.scopes)
  // gets every chart once per scope, ids prefixed "SCOPE-", and the page flips between them.
  std::string scope = "";
  // The chart whose hovered or clicked point this one shows ("" = none): a breakdown chart picks
  // from its scatter (the page sets its parameter `chosen`; spec.usermeta.tessera_pick says how).
  std::string picks_from = "";
};

// What a `--json` result is, from its fields (docs/report.md "The JSON fields the charts read").
enum class ResultKind { run, serve, explain, sensitivity, explore, explore_serve, compare, validate_data };
TESSERA_API ResultKind result_kind(const nlohmann::json& result);
// "tessera run", "tessera explore", ... (the header's study line).
TESSERA_API const char* result_kind_command(ResultKind kind);

// The Okabe–Ito colour-blind-safe palette (Okabe & Ito 2008), black last.
TESSERA_API const std::vector<std::string>& okabe_ito();

// `tessera run --json`: the Pareto scatter (points + frontier; x, y and colour chosen in the
// page) and the stage breakdown of the configuration chosen in it (`breakdowns`: the best, the
// frontier and the top N).
TESSERA_API std::vector<ChartSpec> search_charts(const nlohmann::json& result);
// `tessera serve --json`: tokens/s/user vs tokens/s/PE with the SLO lines, the aggregated and
// (its `disaggregated` block) disaggregated frontiers, and the breakdown of the prefill and
// decode steps of the serving point chosen in it.
TESSERA_API std::vector<ChartSpec> serve_charts(const nlohmann::json& result);
// Whichever of the two `result` is (a serve result has workload.mode "serve").
TESSERA_API bool is_serve_result(const nlohmann::json& result);

// `tessera explain --json`: the stage breakdown (compute / memory / communication / overhead
// stacked per stage).
TESSERA_API std::vector<ChartSpec> explain_charts(const nlohmann::json& result);
// `tessera sensitivity --json`: one small chart per parallelism knob (latency vs value,
// infeasible values marked with their reason) and the hardware tornado of elasticities.
TESSERA_API std::vector<ChartSpec> sensitivity_charts(const nlohmann::json& result);
// The tornado of `hardware` rows (sensitivity) or `hardware_sensitivity` (explore): fixed vs
// re-optimised elasticity per knob, ranked.
TESSERA_API nlohmann::json tornado_spec(const nlohmann::json& rows, bool serve = false);
// `tessera explore --json` (a search or a serve scenario): the grid as small multiples of heat
// maps, the latency/cost frontier of the hardware points, the hardware tornado.
TESSERA_API std::vector<ChartSpec> explore_charts(const nlohmann::json& result);
// `tessera compare --json`: the optima's latency under each model side by side, rank vs rank
// (with Kendall tau-b) over `points`, and where the winner changes.
TESSERA_API std::vector<ChartSpec> compare_charts(const nlohmann::json& result);
// `tessera validate-data --json`: predicted vs measured (log axes), the error per source and
// metric family.
TESSERA_API std::vector<ChartSpec> validation_charts(const nlohmann::json& result);
// The charts of any result kind (with `by_scope`: of each scope, its own first).
TESSERA_API std::vector<ChartSpec> report_charts(const nlohmann::json& result);

}  // namespace tessera
