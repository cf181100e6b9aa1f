#pragma once
// The rows of the field table for the tests (scenario/fields/field_table.hpp).
#include <string_view>
#include <vector>

#include "scenario/fields/field_table.hpp"

namespace tessera::test {

inline std::vector<const schema::FieldRow*> all_rows() {
  std::vector<const schema::FieldRow*> out;
  for (const schema::FieldRow& r : schema::field_rows()) out.push_back(&r);
  return out;
}

inline const schema::FieldRow* row(std::string_view path) { return schema::find_field(path); }

}  // namespace tessera::test
