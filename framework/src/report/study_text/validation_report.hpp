#pragma once
// `tessera validate-data`'s renderings of the validation reports (analysis/validation/validation.hpp).
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/validation/validation.hpp"
#include "studies/documents/validation_document.hpp"  // reports_document, reports_json
#include "tessera/export.hpp"

namespace tessera::validation {

// Text tables (one per latency model: rows, per-source and overall errors, unmapped rows).
// The per-row table fitted to `width` columns (0 = as it is): the source, then the framework go.
TESSERA_API void print_reports(std::ostream& os, const std::vector<ModelReport>& reports,
                               bool show_rows = true, std::size_t width = 0);
}  // namespace tessera::validation
