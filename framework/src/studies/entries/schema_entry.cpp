// `schema`'s façade entry: schema_entry.hpp.
#include "studies/entries/schema_entry.hpp"

#include "core/text/nearest_name.hpp"
#include "core/text/text_file.hpp"
#include "studies/json/field_text.hpp"
#include "studies/json/json_schema.hpp"
#include "tessera/error.hpp"

namespace tessera::studies {
namespace {

schema::FieldFile parse_kind(const std::string& name) {
  schema::FieldFile f{};
  if (schema::field_file_from_name(name, &f)) return f;
  const std::vector<std::string> kinds = {"model", "machine", "scenario"};
  throw InputError("unknown kind '" + name + "' for tessera schema" + did_you_mean(name, kinds) +
                   "; the kinds are model, machine and scenario");
}

}  // namespace

SchemaResult file_schema(const SchemaOptions& options) {
  if (!options.doc.empty() && options.form != SchemaForm::markdown)
    throw InputError("--doc FILE goes with --markdown");
  if (!options.doc.empty() && !options.kind.empty())
    throw InputError("--doc FILE takes no kind (its sections name theirs)");
  std::vector<schema::FieldFile> files;
  if (!options.kind.empty())
    files.push_back(parse_kind(options.kind));
  else if (options.form == SchemaForm::json_schema)
    files.push_back(schema::FieldFile::scenario);
  else
    files = {schema::FieldFile::model, schema::FieldFile::machine, schema::FieldFile::scenario};
  SchemaResult result;
  for (schema::FieldFile f : files)
    result.kinds.push_back({f, schema::field_file_name(f), schema::rows_of(f)});
  if (options.form == SchemaForm::json_schema) result.document = schema::json_schema(files.front());
  if (!options.doc.empty()) result.doc_text = read_text_file(options.doc, "the --doc file");
  return result;
}

}  // namespace tessera::studies
