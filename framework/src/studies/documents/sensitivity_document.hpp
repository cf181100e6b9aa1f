#pragma once
// `tessera sensitivity --json` (and the hardware ranking `tessera explore` shares), in SI units.
#include <nlohmann/json.hpp>
#include <vector>

#include "analysis/search/sensitivity.hpp"
#include "analysis/serving/serve_sensitivity.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"

namespace tessera {

// The ranked elasticities: rank, knob, label, value and unit, both elasticities and the four
// latencies behind them, the note.
TESSERA_API nlohmann::json hardware_json(const std::vector<HardwareElasticity>& hw);
// `tessera sensitivity --json`: scenario, best, parallelism (with the sweeps), hardware (with
// the elasticities).
TESSERA_API nlohmann::json sensitivity_json(const Session& session, const SensitivityStudy& study);

// `tessera sensitivity --json` on a serve scenario, in SI units with the unit in the key:
// scenario, model, machine, latency model, mode "serve", the serving workload and SLO, the
// objectives (ranking axis first), best (the serving study's best point), parallelism (each
// knob's sweep: the best tokens/s/PE within the SLO per value), hardware (the elasticities of the
// best tokens/s/PE within the SLO, of the ranking axis and of the disaggregated pair), note.
TESSERA_API nlohmann::json serve_sensitivity_json(const Session& session, const ServeSensitivityStudy& study);

}  // namespace tessera
