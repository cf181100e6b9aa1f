#pragma once
// `tessera sensitivity --json` (and the hardware ranking `tessera explore` shares), in SI units.
#include <nlohmann/json.hpp>
#include <vector>

#include "analysis/search/sensitivity.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"

namespace tessera {

// The ranked elasticities: rank, knob, label, value and unit, both elasticities and the four
// latencies behind them, the note.
TESSERA_API nlohmann::json hardware_json(const std::vector<HardwareElasticity>& hw);
// `tessera sensitivity --json`: scenario, best, parallelism (with the sweeps), hardware (with
// the elasticities).
TESSERA_API nlohmann::json sensitivity_json(const Session& session, const SensitivityStudy& study);
}  // namespace tessera
