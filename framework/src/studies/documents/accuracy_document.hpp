#pragma once
// `tessera validate-data`'s --json document of the validation reports (analysis/accuracy/accuracy_study.hpp);
// their text: report/study_text/accuracy_report.hpp.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/accuracy/accuracy_study.hpp"
#include "tessera/export.hpp"

namespace tessera::accuracy {

// JSON: one model -> {latency, rows, unmapped, summary}; several -> {models: [...]}; with `version`.
TESSERA_API nlohmann::json reports_document(const std::vector<ModelReport>& reports);
// The same document as text (dump(2) and a newline).
TESSERA_API std::string reports_json(const std::vector<ModelReport>& reports);

}  // namespace tessera::accuracy
