#pragma once
// What the request stream's length rows share (fields_scenario.cpp's serving.requests.input and
// .output, fields_prefix_cache.cpp's serving.requests.conversation.message): the distribution
// kinds and the token-count row.
#include <string_view>

#include "scenario/fields/field_row_builders.hpp"

namespace tessera::schema::rows {

// In requests::LengthKind's order.
inline constexpr ParamChoice kLengthKinds[] = {
    {"fixed", "every length `tokens`"},
    {"uniform", "integers drawn uniformly in [min, max]"},
    {"lognormal", "median * exp(sigma * N(0, 1)), rounded, clamped to [min, max]"},
    {"table", "drawn from `table`: token counts with their weights"}};

// A token count of the request stream (K and M suffixes).
constexpr FieldRow stream_tokens(std::string_view path, const char* def, double min, const char* help,
                                 FieldSlot slot) {
  FieldRow r = integer(path, FieldFile::scenario, def, min, kNoMax, help, slot, "workload.tokens");
  r.format = FieldFormat::tokens;
  return r;
}

}  // namespace tessera::schema::rows
