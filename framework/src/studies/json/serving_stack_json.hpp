#pragma once
// What `framework:` did to a study as JSON (docs/frameworks.md): the framework and version, and
// what was dropped with each reason.
#include <nlohmann/json.hpp>

#include "analysis/serving/serve_study.hpp"
#include "scenario/scenario.hpp"
#include "tessera/export.hpp"

namespace tessera {

// {"name", "version", "docs", "catalog", "dropped_values": [...], "dropped_configurations": {...}}
TESSERA_API nlohmann::json serving_stack_json(const Scenario& s, const ServeCounts* counts);
}  // namespace tessera
