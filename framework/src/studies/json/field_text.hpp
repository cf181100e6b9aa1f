#pragma once
// The words a person reads for one row of the field table (scenario/fields/field_table.hpp): its key
// as written in its own file, its type with the unit, its range or choices and its default.
// `tessera schema` and docs/scenario-format.md's generated key tables both use them.
#include <string>
#include <string_view>
#include <vector>

#include "scenario/fields/field_table.hpp"
#include "tessera/export.hpp"

namespace tessera::schema {

// "model", "machine", "scenario".
TESSERA_API const char* field_file_name(FieldFile f);
// The kind named `name`; false when none.
TESSERA_API bool field_file_from_name(std::string_view name, FieldFile* out);

// The rows of one file kind, in table order.
TESSERA_API std::vector<const FieldRow*> rows_of(FieldFile f);

// The key as written in its own file: a model or machine file's keys lose their `model.` or
// `machine.` prefix, and a list element `*` reads `[]` ("levels[].link_bw"); a scenario's keys
// are their paths.
TESSERA_API std::string display_key(const FieldRow& row);
// "integer", "token count", "number", "bool", "string", "enum", "bandwidth (B/s)", "list of integer",
// "plugin choice", "reference", "mapping", "list of mappings", "free mapping".
TESSERA_API std::string type_text(const FieldRow& row);
// "[1, 65536]", "[0 B/s, ∞)", "decode | prefill", or "" when any value of the type goes.
TESSERA_API std::string range_text(const FieldRow& row);
// The default as written in YAML, "required", or "—" for an optional key without one.
TESSERA_API std::string default_text(const FieldRow& row);
// The values an enumeration takes: its choices; a number-format row (or an enumeration that
// declares no choices) takes tessera/dtype.hpp's names. Empty for other types.
TESSERA_API std::vector<std::string> choice_values(const FieldRow& row);
// True when the key must be given (no default).
TESSERA_API bool is_required(const FieldRow& row);
// True when the value must exceed spec.min ("(0, 1]", a positive size).
TESSERA_API bool min_exclusive(const FieldRow& row);
// True for a token count (an integer that may carry a K or M suffix: 128K).
TESSERA_API bool is_token_count(const FieldRow& row);

}  // namespace tessera::schema
