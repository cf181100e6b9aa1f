#pragma once
// What `framework:` did to a study (docs/frameworks.md): the framework and version, and what
// was dropped with each reason — sweep values when the scenario loaded, configurations when
// the study enumerated them. Only printed when the scenario names a framework.
#include <nlohmann/json.hpp>
#include <ostream>

#include "analysis/serve_study.hpp"
#include "scenario/scenario.hpp"
#include "tessera/export.hpp"

namespace tessera {

// {"name", "version", "docs", "catalog", "dropped_values": [...], "dropped_configurations": {...}}
TESSERA_API nlohmann::json framework_json(const Scenario& s, const ServeCounts* counts);
// "framework  vLLM 0.12.0 (...)" and one line per drop; nothing when no framework is set.
TESSERA_API void print_framework_text(std::ostream& os, const Scenario& s, const ServeCounts* counts);

}  // namespace tessera
