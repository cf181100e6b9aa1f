#pragma once
// `tessera validate-data`'s renderings of the validation reports (analysis/accuracy/accuracy_study.hpp).
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/accuracy/accuracy_study.hpp"
#include "studies/documents/accuracy_document.hpp"  // reports_document, reports_json
#include "tessera/export.hpp"

namespace tessera::accuracy {

// Text tables (one per latency model: rows, per-source and overall errors, unmapped rows).
// The per-row table fitted to `width` columns (0 = as it is): the source, then the framework go.
TESSERA_API void print_reports(std::ostream& os, const std::vector<ModelReport>& reports,
                               bool show_rows = true, std::size_t width = 0);
}  // namespace tessera::accuracy
