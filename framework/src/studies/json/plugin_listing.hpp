#pragma once
// The registered plugins as JSON: id, kind, name, version, summary, ABI and kind versions, the
// framework version built against, path, and the scenario and machine parameter schemas (each
// parameter's type, unit, dimension, default, range, choices, help).
#include <nlohmann/json.hpp>
#include <vector>

#include "host/plugin_registry.hpp"
#include "tessera/export.hpp"

namespace tessera {

TESSERA_API nlohmann::json plugins_json(const std::vector<const LoadedPlugin*>& plugins);

}  // namespace tessera
