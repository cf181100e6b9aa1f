// The keys of every mapping of the model, machine and scenario schemas, from the field table
// (field_table.hpp), and the file header.
#include <map>
#include <string_view>

#include "core/text/nearest_name.hpp"
#include "scenario/fields/field_table.hpp"
#include "scenario/readers/schema_util.hpp"
#include "scenario/schemas/schemas.hpp"

namespace tessera::loader {

namespace {

using Keys = std::vector<std::string>;

// The keys of a mapping: its rows' last segments, `<dtype>` standing for every number format.
Keys keys_of(std::string_view canonical_path) {
  Keys keys;
  for (const schema::FieldRow* r : schema::child_rows(canonical_path)) {
    const std::string_view k = schema::field_key(*r);
    if (k == "<dtype>")
      keys.insert(keys.end(), dtype_names().begin(), dtype_names().end());
    else
      keys.emplace_back(k);
  }
  return keys;
}

// Every mapping of the table: the scenario's root, the mapping rows, the model and machine
// references (their keys are the files'), and `P.*` for a list of mappings P (machine.levels).
const std::map<std::string, Keys, std::less<>>& key_table() {
  static const std::map<std::string, Keys, std::less<>> t = [] {
    std::map<std::string, Keys, std::less<>> m;
    m.emplace("", keys_of(""));
    for (const schema::FieldRow& r : schema::field_rows()) {
      if (r.use == schema::FieldUse::reference) {
        m.emplace(std::string(r.path), keys_of(r.path));
      } else if (r.use == schema::FieldUse::mapping) {
        const std::string p = r.list ? std::string(r.path) + ".*" : std::string(r.path);
        m.emplace(p, keys_of(p));
      }
    }
    return m;
  }();
  return t;
}

}  // namespace

const std::vector<std::string>* schema_keys(const std::string& canonical_path) {
  const auto& t = key_table();
  const auto it = t.find(canonical_path);
  return it == t.end() ? nullptr : &it->second;
}

bool schema_free_keys(const std::string& canonical_path) {
  const schema::FieldRow* r = schema::find_field(canonical_path);
  return r && (r->use == schema::FieldUse::free_keys || r->use == schema::FieldUse::choice);
}

bool check_header(const YNode& root, const std::string& expected_kind, std::string* kind_out, Diags& d) {
  static const Keys kKinds = {"model", "machine", "scenario"};
  const std::string expected_text =
      expected_kind.empty() ? std::string("model, machine or scenario") : expected_kind;
  if (!root.is_mapping()) {
    d.error(root.where,
            "expected a mapping starting with `schema_version: 1` and `kind: " +
                (expected_kind.empty() ? std::string("model | machine | scenario") : expected_kind) +
                "`, found " + describe(root));
    return false;
  }
  bool ok = true;
  const YNode* version = root.find("schema_version");
  if (!version) {
    d.error(root.where,
            "missing required key 'schema_version' (every Tessera file starts with "
            "`schema_version: 1`)");
    ok = false;
  } else if (!version->is_scalar() || version->value != "1") {
    d.error(version->where,
            "schema_version: expected 1 (the only version this Tessera reads), found " + describe(*version));
    ok = false;
  }
  const YNode* kind = root.find("kind");
  if (!kind) {
    d.error(root.where, "missing required key 'kind' (expected `kind: " + expected_text + "`)");
    return false;
  }
  if (!kind->is_scalar()) {
    d.error(kind->where, "kind: expected " + expected_text + ", found " + describe(*kind));
    return false;
  }
  if (expected_kind.empty()) {
    bool known = false;
    for (const auto& k : kKinds) known = known || k == kind->value;
    if (!known) {
      d.error(kind->where, "kind: expected model, machine or scenario, found " + describe(*kind) +
                               did_you_mean(kind->value, kKinds));
      return false;
    }
  } else if (kind->value != expected_kind) {
    bool known = false;
    for (const auto& k : kKinds) known = known || k == kind->value;
    d.error(kind->where, "kind: expected " + expected_kind + ", found " + describe(*kind) +
                             (known ? " (this file describes a " + kind->value + ")"
                                    : did_you_mean(kind->value, Keys{expected_kind})));
    return false;
  }
  if (kind_out) *kind_out = kind->value;
  return ok;
}

}  // namespace tessera::loader
