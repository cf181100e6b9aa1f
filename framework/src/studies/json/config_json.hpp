#pragma once
// A configuration's knobs as JSON (every document that names a configuration).
#include <nlohmann/json.hpp>

#include "tessera/export.hpp"
#include "tessera/machine.hpp"
#include "tessera/parallel_config.hpp"

namespace tessera {

// The knobs as a JSON object (placements by name).
TESSERA_API nlohmann::json config_json(const ParallelConfig& c, const MachineSpec& m);

}  // namespace tessera
