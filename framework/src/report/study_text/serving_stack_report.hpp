#pragma once
// What `framework:` did to a study (docs/frameworks.md): the framework and version, and what
// was dropped with each reason — sweep values when the scenario loaded, configurations when
// the study enumerated them. Only printed when the scenario names a framework.
#include <nlohmann/json.hpp>
#include <ostream>

#include "analysis/serving/serve_study.hpp"
#include "scenario/scenario.hpp"
#include "studies/json/serving_stack_json.hpp"  // serving_stack_json
#include "tessera/export.hpp"

namespace tessera {

// "framework  vLLM 0.12.0 (...)" and one line per drop; nothing when no framework is set.
TESSERA_API void print_serving_stack_text(std::ostream& os, const Scenario& s, const ServeCounts* counts);

}  // namespace tessera
