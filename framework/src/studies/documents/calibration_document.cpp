// `tessera calibrate --json`: calibration_document.hpp.
#include "studies/documents/calibration_document.hpp"

#include "analysis/calibration/percentiles.hpp"
#include "studies/json/json_number.hpp"

namespace tessera::calibration {
namespace {}  // namespace

nlohmann::json calibration_json(const Calibration& c, const std::string& command,
                                const nlohmann::json& provenance) {
  using nlohmann::json;
  json j;
  j["command"] = command;
  if (!provenance.is_null()) j["provenance"] = provenance;
  j["latency"] = c.latency;
  j["rows_mapped"] = c.data.rows.size();
  j["rows_read"] = c.data.rows_read;
  j["sources"] = c.sources;
  j["fitted_values"] = c.fit.parameters();
  json values = json::array();
  for (const FittedValue& v : c.fit.values)
    values.push_back({{"owner", v.owner == ParamOwner::family ? "family" : "profile"},
                      {"group", v.group},
                      {"name", v.name},
                      {"value", json_number(v.value)},
                      {"on_range_edge", v.on_wall}});
  j["values"] = values;
  json protocol = json::array();
  for (const ProtocolScore& ps : c.protocol) {
    json p;
    p["fold"] = fold_name(ps.kind);
    const auto pooled = ps.pooled();
    const auto m = median(apes(c, pooled, nullptr));
    const auto mt = median(apes(c, pooled, &target_only));
    p["rows"] = pooled.size();
    p["median_ape"] = m ? json(*m) : json(nullptr);
    p["median_ape_target"] = mt ? json(*mt) : json(nullptr);
    json folds = json::array();
    for (const FoldScore& f : ps.folds) {
      const auto fm = median(apes(c, f.scored, nullptr));
      json rows = json::array();
      for (const ScoredRow& s : f.scored)
        rows.push_back({{"id", c.data.rows[s.row].id},
                        {"file", c.data.rows[s.row].file},
                        {"metric", metric_key(c.data.rows[s.row])},
                        {"measured", c.data.rows[s.row].measured},
                        {"predicted", json_number(s.predicted)},
                        {"ape", s.ape},
                        {"predicted_ok", s.ok}});
      folds.push_back({{"held_out", f.fold.held_out},
                       {"fitted_values", f.parameters},
                       {"a_priori", f.fallbacks},
                       {"median_ape", fm ? json(*fm) : json(nullptr)},
                       {"rows", rows}});
    }
    p["folds"] = folds;
    protocol.push_back(p);
  }
  j["protocol"] = protocol;
  json skipped = json::array();
  for (const SkippedRow& s : c.data.skipped)
    skipped.push_back({{"file", s.file}, {"id", s.id}, {"reason", s.reason}});
  j["skipped"] = skipped;
  json bands = json::array();
  for (const Band& b : c.bands)
    bands.push_back({{"family", b.family},
                     {"framework", b.framework},
                     {"fold", b.fold},
                     {"rows", b.rows},
                     {"sources", b.sources},
                     {"p10_ln", b.p10},
                     {"p50_ln", b.p50},
                     {"p90_ln", b.p90}});
  j["bands"] = bands;
  j["notes"] = c.notes;
  return j;
}

}  // namespace tessera::calibration
