#pragma once
// The rows of the result schema (report/schema_docs/result_schema.hpp): per kind of result, the
// "path: types" rows read from the chart builders (vega_specs.cpp, picked_breakdown.cpp,
// *_charts.cpp, vega_marks.cpp) and the page header (html_report.cpp). A path's `[]` is each
// item of a list, `*` each member of an object.
#include <string>
#include <vector>

#include "report/charts/vega_specs.hpp"

namespace tessera {
// Named, not anonymous: the unity build puts other files' helpers beside these.
namespace result_schema_rows {

enum Type : unsigned { kNumber = 1, kString = 2, kBoolean = 4, kObject = 8, kList = 16 };
constexpr unsigned N = kNumber, S = kString, B = kBoolean, O = kObject, L = kList;

struct Rule {
  std::string path;
  unsigned types;
  bool required = false;  // absent or null breaks the page (its script reads inside it)
};

// The rows of a result of kind `kind`: the page header's, then the kind's own.
std::vector<Rule> result_rules(ResultKind kind);

}  // namespace result_schema_rows
}  // namespace tessera
