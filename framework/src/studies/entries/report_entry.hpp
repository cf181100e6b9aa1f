#pragma once
// `report`'s façade entry (docs/architecture.md "The study façade"): a saved `--json` result read
// back as every input file is read (regular files only, file.bytes; nesting, strings and values
// bounded by yaml.depth, scalar.bytes and yaml.nodes; duplicate keys refused), its kind told by
// its members, its fields checked by the caller's schema (report/schema_docs/result_schema.hpp) before any
// page is written. The CLI (`tessera report RESULT.json`) then draws it.
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "scenario/readers/json_tree.hpp"
#include "tessera/export.hpp"

namespace tessera::studies {

// Records in `d` each field of the located document the charts could not read.
using ResultFieldCheck = std::function<void(const loader::JNode& doc, loader::Diags& d)>;

// The result at `path`: InputErrors for unreadable JSON, a document that is not a study's result
// (no "scenario", no "models") or one `check` refuses. The located tree is freed before the
// document is parsed again for the charts.
TESSERA_API nlohmann::json read_result(const std::string& path, const ResultFieldCheck& check);

}  // namespace tessera::studies
