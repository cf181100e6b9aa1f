#pragma once
// Typed reading of a YAML value by its field-table row (field_table.hpp): the row's ParamSpec
// gives the type, the unit's dimension, the range, whether it is required and the limit that
// bounds it; messages name the key's dotted path, what was expected and what was found.
// Cross-field checks (kv_heads divides heads, chunk ≤ context, ...) stay with their schema.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "scenario/fields/field_table.hpp"
#include "scenario/readers/yaml_tree.hpp"

namespace tessera::loader {

// One value read by row: `number` for reals and quantities (SI), `integer` for integers,
// `boolean`, `text` for strings and enumerations (the choice as written).
struct FieldValue {
  double number = 0;
  std::int64_t integer = 0;
  bool boolean = false;
  std::string text;
};

// Reads scalar `n` (shown at `path`) as `row` says; nullopt with a diagnostic on a problem.
std::optional<FieldValue> read_field(const YNode& n, const std::string& path, const schema::FieldRow& row,
                                     Diags& d);

// The row's value at key `key` of mapping `map` (shown at `path`): nullptr when absent, and
// then a "missing required key" error when the row has no default.
const YNode* field_member(const YNode& map, const std::string& path, const schema::FieldRow& row, Diags& d);

// What a missing value of `row` should have been: "decode or prefill", "a token count, e.g. 128K",
// "HBM capacity per PE: a byte size ...".
std::string field_expectation(const schema::FieldRow& row);

// Whether `row` lands in a typed struct (a real, integer or boolean slot).
bool has_slot(const schema::FieldRow& row);
// Reads scalar `n` (shown at `path`) by `row` into its slot in `site`; a diagnostic on a problem.
void read_slot(const YNode& n, const std::string& path, const schema::FieldRow& row,
               const schema::FieldSite& site, Diags& d);

// Reads every row with a slot directly under the mapping `canonical` from `map` (shown at
// `path`) into `site`, in table order: required ones reported when missing, each value typed
// and ranged by its row. Returns false when a diagnostic was added.
bool read_slot_fields(const YNode& map, const std::string& path, std::string_view canonical,
                      const schema::FieldSite& site, Diags& d);

// The row of a canonical path that the schemas read (a programming error when absent).
const schema::FieldRow& row_of(std::string_view canonical_path);

}  // namespace tessera::loader
