#pragma once
// `tessera calibrate --json` (analysis/calibration/calibration_study.hpp), in SI: the command,
// provenance, the rows mapped and read, the fitted values, every fold of the protocol with its
// held-out rows scored, the skipped rows, the error bands and the notes. The text, the family
// blocks and the band file are report/study_text/calibration_report.hpp's.
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/calibration/calibration_study.hpp"
#include "tessera/export.hpp"

namespace tessera::calibration {

// `provenance`: studies/json/provenance.hpp's provenance_json (null: left out).
TESSERA_API nlohmann::json calibration_json(const Calibration& c, const std::string& command,
                                            const nlohmann::json& provenance = nullptr);

}  // namespace tessera::calibration
