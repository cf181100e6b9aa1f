#pragma once
// `tessera schema [model|machine|scenario]`: every key of a file kind with its type and unit,
// range or choices, default or "required", and help, within `width` columns: one table when the
// help fits beside the other columns, else key, type and default in columns with the range and
// help indented under each key.
#include <cstddef>
#include <string>

#include "scenario/fields/field_table.hpp"
#include "tessera/export.hpp"

namespace tessera::schema {

TESSERA_API std::string schema_listing(FieldFile file, std::size_t width = 100);

}  // namespace tessera::schema
