#pragma once
// `tessera explain`'s --json document: one configuration stage by stage (its text:
// report/study_text/explain_report.hpp).
#include <nlohmann/json.hpp>

#include "eval/evaluator.hpp"
#include "eval/session.hpp"
#include "studies/json/config_json.hpp"  // config_json
#include "tessera/export.hpp"

namespace tessera {

TESSERA_API nlohmann::json explain_json(const Session& session, const Evaluation& e);

}  // namespace tessera
