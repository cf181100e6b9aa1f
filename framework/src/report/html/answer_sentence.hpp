#pragma once
// The sentence every HTML report opens with (docs/report.md "The answer first"): what the study
// found, in words, from its --json result: "Best: cp=8 tp=16 on 128 pes of cube-sip — latency
// 6.13 ms (163 tokens/s)." Read field by field; a result missing a field gives a shorter
// sentence, never an exception.
#include <string>

#include <nlohmann/json.hpp>

#include "tessera/export.hpp"

namespace tessera {

TESSERA_API std::string answer_sentence(const nlohmann::json& result);

// A value with its unit for the sentence and the axis titles: seconds as s/ms/µs, others as
// "%.3g unit" ("6.13 ms", "380 tokens/s").
TESSERA_API std::string answer_quantity(double value, const std::string& unit);

}  // namespace tessera
