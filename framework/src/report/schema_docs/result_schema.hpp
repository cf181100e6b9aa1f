#pragma once
// The schema of a saved `--json` result as `tessera report` reads it: the type of every field the
// page draws from (docs/report.md "The JSON fields the charts read"), for each kind of result.
// A field may be absent or null (an older or partial result draws what it has), except the few
// whose absence breaks the page's own scripts (run's `points[].objectives`, compare's
// `points[].rank`); a field of another type is refused at its location, before any page is
// written, as `FILE:LINE:COL: error: best.id: expected a number or a string, found [...]`.
#include "scenario/readers/json_tree.hpp"
#include "tessera/export.hpp"

namespace tessera {

// Records in `d` each field of `doc` (the document with its locations) whose type is not the
// one its kind's charts read; the kind is told as report/charts/vega_specs.hpp result_kind tells it.
// Each `by_scope` document is checked as one of its own kind.
TESSERA_API void check_result_fields(const loader::JNode& doc, loader::Diags& d);

}  // namespace tessera
