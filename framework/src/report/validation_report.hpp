#pragma once
// `tessera validate-data`'s renderings of the validation reports (analysis/validation.hpp).
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/validation.hpp"
#include "tessera/export.hpp"

namespace tessera::validation {

// Text tables (one per latency model: rows, per-source and overall errors, unmapped rows).
// The per-row table fitted to `width` columns (0 = as it is): the source, then the framework go.
TESSERA_API void print_reports(std::ostream& os, const std::vector<ModelReport>& reports,
                               bool show_rows = true, std::size_t width = 0);
// JSON: one model -> {latency, rows, unmapped, summary}; several -> {models: [...]}; with `version`.
TESSERA_API nlohmann::json reports_document(const std::vector<ModelReport>& reports);
// The same document as text (dump(2) and a newline).
TESSERA_API std::string reports_json(const std::vector<ModelReport>& reports);

}  // namespace tessera::validation
