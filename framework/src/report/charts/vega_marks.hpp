#pragma once
// Pieces of Vega-Lite specifications that several charts share (one definition each): the
// frontier's diamond, the ranked horizontal bars (explain's stages, the tornado, the run and
// serve breakdowns), the colours of a stage's four parts and the breakdown chart that shows the
// configuration chosen in a scatter (docs/report.md).
#include <string>

#include <nlohmann/json.hpp>

namespace tessera::vega {

// The mark of a frontier point drawn over a scatter: a hollow black diamond.
nlohmann::json frontier_mark();

// A nominal y channel of bands ordered by the smallest `rank_field` of each band (no title;
// label_limit 0 = Vega-Lite's default).
nlohmann::json ranked_band(const std::string& field, const std::string& rank_field, int label_limit = 0);

// Horizontal bars of `rows`, one band of `step` pixels per y value: `y` (ranked_band), `x`, and
// the further encoding channels in `more` (colour, order, tooltip, ...).
nlohmann::json ranked_bars(int width, int step, nlohmann::json rows, nlohmann::json y, nlohmann::json x,
                           nlohmann::json more);

// A point's size: `chosen` for the point whose id is the scatter's parameter `picked` (the
// configuration its breakdown chart shows), else `normal`.
nlohmann::json picked_size(double normal, double chosen);
// That parameter, at first `id` (the best's; "" = none).
nlohmann::json picked_param(const std::string& id);

// The colour of the field `part` (compute / memory / communication / overhead), Okabe-Ito.
nlohmann::json part_colour();

// Rows of a breakdown chart: one per (step, stage, part) with a non-zero time of `stages`
// (`breakdowns`' arrays, studies/json/stage_breakdown.hpp), time_s = part x count; `id` names the
// configuration, `step` ("" or "prefill"/"decode") prefixes the stage's label.
void add_breakdown_rows(nlohmann::json& rows, const nlohmann::json& id, const std::string& config,
                        const std::string& step, const nlohmann::json& stages);

// The breakdown chart of the configuration whose id (as a string) the parameter `chosen` holds
// (`chosen_id` at first): `rows` filtered by it, stacked by part. The page sets `chosen` when a
// point of the scatter is hovered or clicked.
nlohmann::json breakdown_spec(nlohmann::json rows, const std::string& chosen_id);

}  // namespace tessera::vega
