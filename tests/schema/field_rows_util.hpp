#pragma once
// The rows of the field table for the tests, through report/field_text.hpp's exported rows_of
// (field_table.hpp's field_rows and find_field are not exported from the library).
#include <string_view>
#include <vector>

#include "report/field_text.hpp"

namespace tessera::test {

inline std::vector<const schema::FieldRow*> all_rows() {
  std::vector<const schema::FieldRow*> out;
  for (schema::FieldFile f :
       {schema::FieldFile::model, schema::FieldFile::machine, schema::FieldFile::scenario})
    for (const schema::FieldRow* r : schema::rows_of(f)) out.push_back(r);
  return out;
}

inline const schema::FieldRow* row(std::string_view path) {
  for (const schema::FieldRow* r : all_rows())
    if (r->path == path) return r;
  return nullptr;
}

}  // namespace tessera::test
