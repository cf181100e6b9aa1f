#include "studies/json/field_text.hpp"

#include "core/text/dotted_path.hpp"
#include "host/param_check.hpp"
#include "tessera/dtype.hpp"

namespace tessera::schema {

namespace {

std::string_view file_prefix(FieldFile f) {
  switch (f) {
    case FieldFile::model:
      return "model.";
    case FieldFile::machine:
      return "machine.";
    case FieldFile::scenario:
      return "";
  }
  return "";
}

std::string value_type_text(const ParamSpec& s) {
  switch (s.type) {
    case ParamType::integer:
      return "integer";
    case ParamType::real:
      return "number";
    case ParamType::boolean:
      return "bool";
    case ParamType::string:
      return "string";
    case ParamType::enumeration:
      return "enum";
    case ParamType::quantity:
      return std::string(dimension_name(s.dimension)) + " (" + si_unit(s.dimension) + ")";
    case ParamType::real_list:
      return "list of number";
  }
  return "?";
}

}  // namespace

const char* field_file_name(FieldFile f) {
  switch (f) {
    case FieldFile::model:
      return "model";
    case FieldFile::machine:
      return "machine";
    case FieldFile::scenario:
      return "scenario";
  }
  return "?";
}

bool field_file_from_name(std::string_view name, FieldFile* out) {
  for (FieldFile f : {FieldFile::model, FieldFile::machine, FieldFile::scenario})
    if (name == field_file_name(f)) {
      *out = f;
      return true;
    }
  return false;
}

std::vector<const FieldRow*> rows_of(FieldFile f) {
  std::vector<const FieldRow*> out;
  for (const FieldRow& r : field_rows())
    if (r.file == f) out.push_back(&r);
  return out;
}

std::string display_key(const FieldRow& row) {
  std::string_view path = row.path;
  const std::string_view prefix = file_prefix(row.file);
  if (!prefix.empty() && path.starts_with(prefix)) path.remove_prefix(prefix.size());
  std::string out;
  for (const std::string& seg : split_dotted(path)) {
    if (seg == "*") {
      out += "[]";
    } else {
      if (!out.empty()) out += '.';
      out += seg;
    }
  }
  return out;
}

std::string type_text(const FieldRow& row) {
  switch (row.use) {
    case FieldUse::value: {
      const std::string t = is_token_count(row) ? "token count" : value_type_text(row.spec);
      return row.list ? "list of " + t : t;
    }
    case FieldUse::choice:
      return row.list ? "list of plugin choices" : "plugin choice";
    case FieldUse::reference:
      return "reference";
    case FieldUse::mapping:
      return row.list ? "list of mappings" : "mapping";
    case FieldUse::free_keys:
      return "free mapping";
  }
  return "?";
}

std::string range_text(const FieldRow& row) {
  if (row.use != FieldUse::value) return "";
  if (row.spec.type == ParamType::enumeration) {
    std::string c;
    for (const std::string& v : choice_values(row)) c += (c.empty() ? "" : " | ") + v;
    return c;
  }
  std::string r = param_range_text(row.spec);
  if (min_exclusive(row) && r.starts_with("[")) r[0] = '(';
  return r;
}

std::vector<std::string> choice_values(const FieldRow& row) {
  if (row.spec.type != ParamType::enumeration) return {};
  if (row.format == FieldFormat::dtype || !row.spec.choices || row.spec.choice_count == 0)
    return dtype_names();
  std::vector<std::string> out;
  for (std::uint32_t i = 0; i < row.spec.choice_count; ++i) out.emplace_back(row.spec.choices[i].value);
  return out;
}

bool is_required(const FieldRow& row) { return row.spec.default_value == nullptr; }

bool min_exclusive(const FieldRow& row) { return row.min_exclusive; }

bool is_token_count(const FieldRow& row) { return row.format == FieldFormat::tokens; }

std::string default_text(const FieldRow& row) {
  if (is_required(row)) return "required";
  if (row.spec.default_value[0] == '\0') return "—";
  return row.spec.default_value;
}

}  // namespace tessera::schema
