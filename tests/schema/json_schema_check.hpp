#pragma once
// A small JSON Schema checker for the tests: the draft-07 keywords the generator writes (type,
// properties, additionalProperties, required, anyOf, items, minItems, propertyNames, enum,
// const, pattern, minimum, exclusiveMinimum, maximum), applied to a YAML document as yaml-language-server
// reads it (YAML 1.2 core schema: a plain scalar is a null, bool, integer, number or string by its text).
#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

namespace tessera::test {

using Json = nlohmann::ordered_json;

// The JSON value a YAML node reads as.
inline Json yaml_to_json(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: {
      Json j = Json::object();
      for (const auto& kv : n) j[kv.first.as<std::string>()] = yaml_to_json(kv.second);
      return j;
    }
    case YAML::NodeType::Sequence: {
      Json j = Json::array();
      for (const auto& e : n) j.push_back(yaml_to_json(e));
      return j;
    }
    case YAML::NodeType::Scalar: {
      const std::string s = n.Scalar();
      if (n.Tag() == "!") return s;  // quoted
      static const std::regex kInt(R"([-+]?[0-9]+)");
      static const std::regex kFloat(R"([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)");
      if (s == "true" || s == "True" || s == "TRUE") return true;
      if (s == "false" || s == "False" || s == "FALSE") return false;
      if (s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
      if (std::regex_match(s, kInt)) return std::stoll(s);
      if (std::regex_match(s, kFloat)) return std::stod(s);
      return s;
    }
    default:
      return nullptr;
  }
}

// Every place `value` breaks `schema`, as "path: what" lines (empty when it conforms).
inline void check_schema(const Json& schema, const Json& value, const std::string& path,
                         std::vector<std::string>& errors) {
  const auto fail = [&](const std::string& what) {
    errors.push_back((path.empty() ? "(root)" : path) + ": " + what);
  };
  if (schema.contains("anyOf")) {
    bool any = false;
    std::vector<std::string> first;
    for (const Json& alt : schema["anyOf"]) {
      std::vector<std::string> e;
      check_schema(alt, value, path, e);
      if (e.empty()) any = true;
      if (first.empty()) first = e;
    }
    if (!any) fail("matches no alternative of anyOf (first: " + (first.empty() ? "" : first[0]) + ")");
  }
  if (schema.contains("const") && value != schema["const"]) fail("expected " + schema["const"].dump());
  if (schema.contains("enum")) {
    bool in = false;
    for (const Json& v : schema["enum"]) in = in || v == value;
    if (!in) fail(value.dump() + " is not one of " + schema["enum"].dump());
  }
  if (schema.contains("type")) {
    const std::string t = schema["type"];
    const bool ok = (t == "object" && value.is_object()) || (t == "array" && value.is_array()) ||
                    (t == "string" && value.is_string()) || (t == "boolean" && value.is_boolean()) ||
                    (t == "integer" && value.is_number_integer()) || (t == "number" && value.is_number());
    if (!ok) {
      fail("expected " + t + ", found " + value.dump());
      return;
    }
  }
  if (value.is_string() && schema.contains("pattern")) {
    const std::regex re(schema["pattern"].get<std::string>(), std::regex::ECMAScript);
    if (!std::regex_search(value.get<std::string>(), re))
      fail(value.dump() + " does not match " + schema["pattern"].get<std::string>());
  }
  if (value.is_number()) {
    if (schema.contains("minimum") && value.get<double>() < schema["minimum"].get<double>())
      fail("below minimum");
    if (schema.contains("maximum") && value.get<double>() > schema["maximum"].get<double>())
      fail("above maximum");
  }
  if (value.is_array()) {
    if (schema.contains("minItems") && value.size() < schema["minItems"].get<std::size_t>())
      fail("too few items");
    if (schema.contains("items"))
      for (std::size_t i = 0; i < value.size(); ++i)
        check_schema(schema["items"], value[i], path + "[" + std::to_string(i) + "]", errors);
  }
  if (value.is_object()) {
    const Json props = schema.value("properties", Json::object());
    for (const auto& [k, v] : value.items()) {
      const std::string p = path.empty() ? k : path + "." + k;
      if (schema.contains("propertyNames")) check_schema(schema["propertyNames"], Json(k), p, errors);
      if (props.contains(k)) {
        check_schema(props[k], v, p, errors);
      } else if (schema.contains("additionalProperties")) {
        const Json& ap = schema["additionalProperties"];
        if (ap.is_boolean()) {
          if (!ap.get<bool>()) errors.push_back(p + ": key not allowed");
        } else {
          check_schema(ap, v, p, errors);
        }
      }
    }
    if (schema.contains("required"))
      for (const Json& r : schema["required"])
        if (!value.contains(r.get<std::string>()))
          fail("missing required key '" + r.get<std::string>() + "'");
  }
}

inline std::vector<std::string> schema_errors(const Json& schema, const Json& value) {
  std::vector<std::string> e;
  check_schema(schema, value, "", e);
  return e;
}

}  // namespace tessera::test
