#pragma once
// Reports of a search (`tessera run`): aligned text tables in human units, JSON and CSV in SI
// units with the unit in the key or column name.
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "eval/search_driver.hpp"
#include "eval/session.hpp"
#include "report/explain_report.hpp"  // config_json
#include "tessera/export.hpp"

namespace tessera {

// "s" -> "_s", "tok/s" -> "_tok_s", "" -> "".
TESSERA_API std::string unit_suffix(const std::string& unit);
// Objective column/key name: "latency_s", "efficiency", "cost_USD".
TESSERA_API std::string objective_key(const ObjectiveSlot& o);

// One record as JSON: knobs, objectives, totals, memory (SI).
TESSERA_API nlohmann::json record_json(const Session& session, const std::vector<ObjectiveSlot>& objectives,
                                       const ConfigRecord& r);
// `tessera run --json`: scenario, counts, objectives, best, pareto, top.
TESSERA_API nlohmann::json search_json(const Session& session, const SearchResult& result);
// `tessera run --csv`: one row per record of `result` (every evaluated config when the search
// ran with SearchOptions::keep_records).
TESSERA_API std::string search_csv(const Session& session, const SearchResult& result);
// The same piecewise, for streaming rows as the search produces them (SearchOptions::on_record):
// the header line, then one line per record.
TESSERA_API void write_search_csv_header(std::ostream& os, const Session& session,
                                         const std::vector<ObjectiveSlot>& objectives);
TESSERA_API void write_search_csv_row(std::ostream& os, const Session& session,
                                      const std::vector<ObjectiveSlot>& objectives, const ConfigRecord& r);

// The scenario line: name, model, machine, workload, scope, plugins.
TESSERA_API void print_scenario_header(std::ostream& os, const Session& session);
// Counts, best config, Pareto frontier, top N. width > 0: the tables fit it (TextTable::print).
TESSERA_API void print_search_text(std::ostream& os, const Session& session, const SearchResult& result,
                                   std::size_t pareto_rows = 40, std::size_t width = 0);

// "cp=8 tp=4 pp=1 dp=1 ep=1 kv=split ffn=TP tp@pe cp@cube ring=kv" — only what matters
// (canonical knobs are left out when they make no difference).
TESSERA_API std::string short_config(const MachineSpec& machine, const ParallelConfig& c);
// "1.234 ms", "812.3 tok/s", "0.412".
TESSERA_API std::string human_objective(const ObjectiveSlot& o, double v);

}  // namespace tessera
