#pragma once
// `tessera explain`: one configuration stage by stage, for people (text) and programs (JSON).
#include <ostream>

#include <nlohmann/json.hpp>

#include "eval/evaluator.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"

namespace tessera {

// The knobs as a JSON object (placements by name).
TESSERA_API nlohmann::json config_json(const ParallelConfig& c, const MachineSpec& m);

TESSERA_API nlohmann::json explain_json(const Session& session, const Evaluation& e);
TESSERA_API void print_explain(std::ostream& os, const Session& session, const Evaluation& e);

}  // namespace tessera
