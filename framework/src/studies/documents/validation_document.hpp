#pragma once
// `tessera validate-data`'s --json document of the validation reports (analysis/validation/validation.hpp);
// their text: report/study_text/validation_report.hpp.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/validation/validation.hpp"
#include "tessera/export.hpp"

namespace tessera::validation {

// JSON: one model -> {latency, rows, unmapped, summary}; several -> {models: [...]}; with `version`.
TESSERA_API nlohmann::json reports_document(const std::vector<ModelReport>& reports);
// The same document as text (dump(2) and a newline).
TESSERA_API std::string reports_json(const std::vector<ModelReport>& reports);

}  // namespace tessera::validation
