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
};

// The Okabe–Ito colour-blind-safe palette (Okabe & Ito 2008), black last.
TESSERA_API const std::vector<std::string>& okabe_ito();

// `tessera run --json`: the Pareto scatter (points + frontier; x, y and colour chosen in the
// page) and the stage breakdown of the best and the top N.
TESSERA_API std::vector<ChartSpec> search_charts(const nlohmann::json& result);
// `tessera serve --json`: tokens/s/user vs tokens/s/PE with the SLO lines, the aggregated and
// (its `disaggregated` block) disaggregated frontiers.
TESSERA_API std::vector<ChartSpec> serve_charts(const nlohmann::json& result);
// Whichever of the two `result` is (a serve result has workload.mode "serve").
TESSERA_API bool is_serve_result(const nlohmann::json& result);

}  // namespace tessera
