#include "studies/json/json_schema.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <string_view>
#include <vector>

#include "core/text/dotted_path.hpp"
#include "host/param_check.hpp"
#include "studies/json/field_text.hpp"
#include "tessera/dtype.hpp"

namespace tessera::schema {

namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kNumber = R"([-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?)";

// What dtype_from_name accepts besides dtype_names().
constexpr std::array<const char*, 3> kDtypeAliases = {"float32", "bfloat16", "float16"};

// One key of the tree the dotted paths make.
struct Node {
  std::string name;
  const FieldRow* row = nullptr;
  std::vector<std::unique_ptr<Node>> kids;  // in row order

  Node* child(std::string_view n) {
    for (auto& k : kids)
      if (k->name == n) return k.get();
    kids.push_back(std::make_unique<Node>());
    kids.back()->name = std::string(n);
    return kids.back().get();
  }
  const Node* find(std::string_view n) const {
    for (const auto& k : kids)
      if (k->name == n) return k.get();
    return nullptr;
  }
};

void insert(Node& root, std::string_view path, const FieldRow* row) {
  Node* n = &root;
  for (const std::string& seg : split_dotted(path)) n = n->child(seg);
  n->row = row;
}

std::string description(const FieldRow& r) {
  std::string d = r.spec.help ? r.spec.help : "";
  if (r.use == FieldUse::value && r.spec.type == ParamType::enumeration) {
    std::string meanings;
    for (std::uint32_t i = 0; r.spec.choices && i < r.spec.choice_count; ++i)
      if (r.spec.choices[i].meaning && *r.spec.choices[i].meaning)
        meanings += std::string(meanings.empty() ? "" : "; ") + r.spec.choices[i].value + ": " +
                    r.spec.choices[i].meaning;
    if (!meanings.empty()) d += " (" + meanings + ")";
  }
  const std::string range =
      r.use == FieldUse::value && r.spec.type != ParamType::enumeration ? range_text(r) : "";
  if (!range.empty()) d += ". Range " + range;
  const std::string def = default_text(r);
  if (def == "required")
    d += ". Required.";
  else if (def != "—")
    d += ". Default " + def + ".";
  return d;
}

void bounds(Json& j, const FieldRow& r) {
  const ParamSpec& s = r.spec;
  const bool integral = s.type == ParamType::integer;
  if (std::isfinite(s.min))
    j[min_exclusive(r) ? "exclusiveMinimum" : "minimum"] =
        integral ? Json(static_cast<std::int64_t>(s.min)) : Json(s.min);
  if (std::isfinite(s.max) && std::abs(s.max) < 9.0e18)
    j["maximum"] = integral ? Json(static_cast<std::int64_t>(s.max)) : Json(s.max);
}

Json scalar_schema(const FieldRow& r) {
  const ParamSpec& s = r.spec;
  Json j;
  switch (s.type) {
    case ParamType::integer: {
      j["type"] = "integer";
      bounds(j, r);
      if (is_token_count(r))  // 128K, 1M (parse_token_count)
        j = Json{{"anyOf", Json::array({j, Json{{"type", "string"},
                                                {"pattern", R"(^\s*[0-9]+(\.[0-9]+)?\s*[kKmM]?\s*$)"}}})}};
      break;
    }
    case ParamType::real: {
      Json num{{"type", "number"}};
      bounds(num, r);
      // "92%" and numbers a YAML 1.1 reader leaves as text ("1e-3").
      j["anyOf"] = Json::array(
          {num, Json{{"type", "string"}, {"pattern", std::string("^\\s*") + kNumber + "\\s*%?\\s*$"}}});
      break;
    }
    case ParamType::boolean:
      j["type"] = "boolean";
      break;
    case ParamType::string:
      j["type"] = "string";
      break;
    case ParamType::enumeration: {
      Json values = Json::array();
      for (const std::string& v : choice_values(r)) values.push_back(v);
      if (!s.choices || s.choice_count == 0)  // the number formats: their aliases too
        for (const char* alias : kDtypeAliases) values.push_back(alias);
      j["enum"] = values;
      break;
    }
    case ParamType::quantity:
      j["type"] = "string";
      j["pattern"] = quantity_pattern(s.dimension);
      break;
    case ParamType::real_list:
      j["type"] = "array";
      j["items"] = Json{{"type", "number"}};
      break;
  }
  return j;
}

// The default as JSON, when the row has one that reads as a single value.
std::optional<Json> default_json(const FieldRow& r) {
  if (!r.spec.default_value || !*r.spec.default_value) return std::nullopt;
  if (r.list) return std::nullopt;
  if (r.use == FieldUse::choice) return Json(r.spec.default_value);
  if (r.use != FieldUse::value) return std::nullopt;
  if (r.spec.type == ParamType::quantity || r.spec.type == ParamType::string)
    return Json(r.spec.default_value);
  const auto v = default_param_value(r.spec);
  if (!v) return std::nullopt;
  return std::visit([](const auto& x) { return Json(x); }, *v);
}

Json value_schema(const FieldRow& r) {
  Json item = scalar_schema(r);
  if (r.format == FieldFormat::statistics)  // {mean: T, p99: T, p99.9: T}
    return Json{
        {"anyOf",
         Json::array({item, Json{{"type", "object"},
                                 {"minProperties", 1},
                                 {"propertyNames", Json{{"pattern", R"(^(mean|p[0-9]+(\.[0-9]+)?)$)"}}},
                                 {"additionalProperties", item}}})}};
  if (!r.list) return item;
  return Json{{"anyOf", Json::array({item, Json{{"type", "array"}, {"items", item}}})}};
}

Json choice_schema() {
  const Json name_only{{"type", "string"}, {"description", "a plugin's name (tessera plugins lists them)"}};
  const Json with_params{{"type", "object"},
                         {"description", "{name: PLUGIN, its parameters...}"},
                         {"properties", Json{{"name", name_only}}},
                         {"required", Json::array({"name"})}};
  const Json one{{"anyOf", Json::array({name_only, with_params})}};
  return Json{{"anyOf", Json::array({name_only, with_params, Json{{"type", "array"}, {"items", one}}})}};
}

// The keys every file starts with (scenario/schemas/schema_keys.cpp's check_header) that no row of
// `n` declares, first in `props`; `in_file` makes schema_version and kind required.
void add_header(const Node& n, Json& props, Json& required, FieldFile kind, bool in_file) {
  Json head = Json::object();
  if (!n.find("schema_version"))
    head["schema_version"] = Json{{"const", 1}, {"description", "the file format's version: 1"}};
  if (!n.find("kind"))
    head["kind"] = Json{{"const", field_file_name(kind)}, {"description", "which schema applies"}};
  if (!n.find("name")) head["name"] = Json{{"type", "string"}, {"description", "display name"}};
  if (!n.find("description")) head["description"] = Json{{"type", "string"}, {"description", "free text"}};
  for (auto& [k, v] : props.items()) head[k] = v;
  props = std::move(head);
  if (in_file)
    for (const char* k : {"schema_version", "kind"})
      if (std::find(required.begin(), required.end(), Json(k)) == required.end()) required.push_back(k);
}

Json node_schema(const Node& n, FieldFile kind, bool forced_reference);

// A model read from a Hugging Face config.json (scenario/hf_config.hpp; not rows of the table).
Json hf_config_schema() {
  return Json{{"type", "object"},
              {"description", "a model read from a Hugging Face config.json"},
              {"properties",
               Json{{"hf_config", Json{{"type", "string"},
                                       {"description", "path to config.json, relative to the scenario"}}},
                    {"family",
                     Json{{"type", "string"},
                          {"description", "the supported family whose rules read it (llama, mixtral, ...)"}}},
                    {"name", Json{{"type", "string"}, {"description", "display name"}}}}},
              {"required", Json::array({"hf_config"})},
              {"additionalProperties", false}};
}

bool required_row(const Node& n) { return n.row && is_required(*n.row); }

// A mapping of the node's keys; `top` drops the required keys (an inline model or machine,
// which may also be {hf_config: ...}) and adds the file header.
Json object_schema(const Node& n, FieldFile kind, int header /* 0 none, 1 file, 2 inline */) {
  if (const Node* elem = n.find("*")) {
    Json j{{"type", "array"}, {"items", object_schema(*elem, kind, 0)}};
    if (required_row(n)) j["minItems"] = 1;
    return j;
  }
  if (const Node* any = n.find("<dtype>")) {
    Json names = Json::array();
    for (const std::string& d : dtype_names()) names.push_back(d);
    for (const char* alias : kDtypeAliases) names.push_back(alias);
    return Json{{"type", "object"},
                {"propertyNames", Json{{"enum", names}}},
                {"additionalProperties", node_schema(*any, kind, false)}};
  }
  Json props = Json::object();
  Json required = Json::array();
  for (const auto& k : n.kids) {
    props[k->name] = node_schema(*k, kind, false);
    if (header != 2 && required_row(*k)) required.push_back(k->name);
  }
  if (header) add_header(n, props, required, kind, header == 1);
  Json j{{"type", "object"}, {"properties", props}, {"additionalProperties", false}};
  if (!required.empty()) j["required"] = required;
  if (n.row && n.row->use == FieldUse::mapping && n.row->list) return Json{{"type", "array"}, {"items", j}};
  // A mapping whose default is a boolean is a switch that may carry settings
  // (collectives.in_network: true, false or {base, hop, bw_factor}).
  if (n.row && n.row->use == FieldUse::mapping && n.row->spec.default_value &&
      (std::string_view(n.row->spec.default_value) == "false" ||
       std::string_view(n.row->spec.default_value) == "true"))
    return Json{{"anyOf", Json::array({Json{{"type", "boolean"}}, j})}};
  return j;
}

Json node_schema(const Node& n, FieldFile kind, bool forced_reference) {
  Json j;
  const FieldRow* r = n.row;
  if (forced_reference || (r && r->use == FieldUse::reference)) {
    // serving.prefill_machine / serving.decode_machine are machines too.
    const bool machine = n.name == "machine" || n.name.ends_with("_machine");
    const FieldFile inline_kind = machine ? FieldFile::machine : FieldFile::model;
    j["anyOf"] = Json::array(
        {Json{{"type", "string"}, {"description", "a file path, or a name looked up in the data root"}},
         object_schema(n, inline_kind, 2)});
    if (inline_kind == FieldFile::model) j["anyOf"].push_back(hf_config_schema());
  } else if (r && r->use == FieldUse::value) {
    j = value_schema(*r);
  } else if (r && r->use == FieldUse::choice) {
    j = choice_schema();
  } else if (r && r->use == FieldUse::free_keys) {
    j["type"] = "object";
  } else {
    j = object_schema(n, kind, 0);
  }
  if (r) {
    j["description"] = description(*r);
    if (auto d = default_json(*r)) j["default"] = *d;
  }
  return j;
}

std::string_view strip(std::string_view path, std::string_view prefix) {
  if (path.starts_with(prefix) && path.size() > prefix.size() && path[prefix.size()] == '.')
    return path.substr(prefix.size() + 1);
  return path;
}

}  // namespace

std::string quantity_pattern(Dimension d) {
  std::string units, prefixes = "k|K|M|G|T|P|E";
  switch (d) {
    case Dimension::none:
      return std::string("^\\s*") + kNumber + "\\s*%?\\s*$";
    case Dimension::time:
      units = "s|sec";
      break;
    case Dimension::bytes:
      units = "B|b|bit|bits";
      break;
    case Dimension::bandwidth:
      units = "B/s|Bps|b/s|bit/s|bps";
      break;
    case Dimension::flop_rate:
      units = "[Ff][Ll][Oo][Pp]/[Ss]|FLOPS|flops|[Oo][Pp]/[Ss]|OPS|ops";
      break;
    case Dimension::flops:
      units = "[Ff][Ll][Oo][Pp]|FLOPs";
      break;
    case Dimension::energy:
      units = "J";
      break;
    case Dimension::power:
      units = "W";
      break;
    case Dimension::money:
      units = "USD";
      break;
  }
  if (d == Dimension::time || d == Dimension::energy || d == Dimension::power || d == Dimension::money)
    prefixes += "|m|u|µ|μ|n|p|f";
  if (d == Dimension::bytes || d == Dimension::bandwidth) prefixes = "Ki|Mi|Gi|Ti|Pi|Ei|" + prefixes;
  return std::string("^\\s*") + kNumber + "\\s*(" + prefixes + ")?(" + units + ")\\s*$";
}

Json json_schema(FieldFile file) {
  Node root;
  for (const FieldRow& r : field_rows()) {
    if (file == FieldFile::scenario) {
      insert(root, r.path, &r);
      // A pool's own machine takes what `machine:` takes.
      if (r.file == FieldFile::machine)
        for (const char* pool : {"serving.prefill_machine.", "serving.decode_machine."})
          insert(root, pool + std::string(strip(r.path, "machine")), &r);
      // A speculative draft model takes what `model:` takes.
      if (r.file == FieldFile::model)
        insert(root, "serving.speculative.model." + std::string(strip(r.path, "model")), &r);
    } else if (r.file == file)
      insert(root, strip(r.path, field_file_name(file)), &r);
  }
  Json j;
  j["$schema"] = "http://json-schema.org/draft-07/schema#";
  j["title"] = std::string("Tessera ") + field_file_name(file) + " file";
  j["description"] = std::string("Generated from Tessera's field table by `tessera schema --json-schema ") +
                     field_file_name(file) + "`; `tessera validate` is the full check.";
  Json body;
  if (file == FieldFile::scenario) {
    // A scenario's `model:` and `machine:` are references: a path, a name or an inline mapping.
    Json props = Json::object();
    Json required = Json::array();
    for (const auto& k : root.kids) {
      const bool ref = k->name == "model" || k->name == "machine";
      props[k->name] = node_schema(*k, file, ref);
      if (ref || required_row(*k)) required.push_back(k->name);
    }
    for (const char* ref : {"model", "machine"})
      if (!props.contains(ref)) {
        Node empty;
        empty.name = ref;
        props[ref] = node_schema(empty, file, true);
        required.push_back(ref);
      }
    add_header(root, props, required, file, true);
    body = Json{
        {"type", "object"}, {"properties", props}, {"additionalProperties", false}, {"required", required}};
  } else {
    body = object_schema(root, file, 1);
  }
  for (auto& [k, v] : body.items()) j[k] = v;
  return j;
}

}  // namespace tessera::schema
