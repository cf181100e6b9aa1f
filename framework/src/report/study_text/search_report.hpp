#pragma once
// Reports of a search (`tessera run`): aligned text tables in human units, JSON and CSV in SI
// units with the unit in the key or column name.
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/search/search_driver.hpp"
#include "report/study_text/explain_report.hpp"   // config_json
#include "studies/documents/search_document.hpp"  // objective_key, record_json, search_json
#include "studies/study_description.hpp"
#include "tessera/export.hpp"

namespace tessera {

// `tessera run --csv`: one row per record of `result` (every evaluated config when the search
// ran with SearchOptions::keep_records).
TESSERA_API std::string search_csv(const StudyDescription& study, const SearchResult& result);
// The same piecewise, for streaming rows as the search produces them (SearchOptions::on_record):
// the header line, then one line per record.
TESSERA_API void write_search_csv_header(std::ostream& os, const StudyDescription& study,
                                         const std::vector<ObjectiveInfo>& objectives);
TESSERA_API void write_search_csv_row(std::ostream& os, const StudyDescription& study,
                                      const std::vector<ObjectiveInfo>& objectives, const ConfigRecord& r);

// The scenario line: name, model, machine, workload, scope, plugins.
TESSERA_API void print_scenario_header(std::ostream& os, const StudyDescription& study);
// Counts, best config, Pareto frontier, top N. width > 0: the tables fit it (TextTable::print).
TESSERA_API void print_search_text(std::ostream& os, const StudyDescription& study,
                                   const SearchResult& result, std::size_t pareto_rows = 40,
                                   std::size_t width = 0);

// "1.234 ms", "812.3 tok/s", "0.412".
TESSERA_API std::string human_objective(const ObjectiveInfo& o, double v);

}  // namespace tessera
