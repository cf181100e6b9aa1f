#pragma once
// `tessera schema --json-schema KIND`: a JSON Schema (draft-07, which yaml-language-server reads)
// of a model, machine or scenario file, built from the field table alone, so that editors
// complete keys, show their help and flag unknown keys while a file is typed. Dotted paths
// become nested objects (closed: `additionalProperties: false`), free mappings stay open, a `*`
// segment makes a list of objects, a `<dtype>` segment a mapping keyed by number formats;
// quantities are strings "<number> <unit>" checked by a pattern of their dimension's units.
// The schema is a help, not the validator: `tessera validate` checks ranges, references and
// the rules between keys.
#include <nlohmann/json.hpp>
#include <string>

#include "scenario/fields/field_table.hpp"
#include "tessera/export.hpp"
#include "tessera/units.hpp"

namespace tessera::schema {

TESSERA_API nlohmann::ordered_json json_schema(FieldFile file);

// The ECMA-262 pattern a quantity of dimension `d` matches: a number, optional spaces, a prefix
// the dimension allows and one of its units ("3.35 TB/s", "80GiB", "2 us").
TESSERA_API std::string quantity_pattern(Dimension d);

}  // namespace tessera::schema
