#pragma once
// `schema`'s façade entry (docs/architecture.md "The study façade"): the keys a model, machine or
// scenario file takes, from the field table (scenario/fields/field_table.hpp) — the rows of the kinds
// asked for, in table order, and for --json-schema the JSON Schema document
// (studies/json/json_schema.hpp). The CLI (`tessera schema`) renders the rows
// (report/schema_docs/schema_listing.hpp, report/schema_docs/schema_markdown.hpp) or prints the document.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenario/fields/field_table.hpp"
#include "tessera/export.hpp"

namespace tessera::studies {

enum class SchemaForm : std::uint8_t { listing, markdown, json_schema };

struct SchemaOptions {
  std::string kind;  // model, machine or scenario; "" = all three (a JSON Schema: scenario)
  SchemaForm form = SchemaForm::listing;
  std::string doc;  // markdown only: the file whose generated sections are rewritten (takes no kind)
};

struct SchemaKind {
  schema::FieldFile file{};
  std::string name;                           // "model", "machine", "scenario"
  std::vector<const schema::FieldRow*> rows;  // its keys, in table order
};

struct SchemaResult {
  std::vector<SchemaKind> kinds;    // the kinds listed, in order (a JSON Schema's: its one kind)
  nlohmann::ordered_json document;  // SchemaForm::json_schema: the JSON Schema (draft-07); else null
  std::string doc_text;             // with SchemaOptions::doc: the file's text, for the renderer to rewrite
};

// InputError on a kind that is none of the three (with the nearest name), on a markdown `doc`
// given a kind, on `doc` without markdown, or on a `doc` that cannot be read.
TESSERA_API SchemaResult file_schema(const SchemaOptions& options);

}  // namespace tessera::studies
