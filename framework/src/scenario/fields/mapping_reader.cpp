// Reading a mapping by the field table (scenario/fields/mapping_reader.hpp).
#include "scenario/fields/mapping_reader.hpp"

#include "scenario/fields/field_reader.hpp"
#include "scenario/readers/schema_util.hpp"
#include "scenario/schemas/schemas.hpp"

namespace tessera::loader {

namespace {

const ChildReader* reader_of(std::span<const ChildReader> children, std::string_view canonical) {
  for (const ChildReader& c : children)
    if (c.canonical == canonical) return &c;
  return nullptr;
}

}  // namespace

ChildReader name_reader(const YNode& n, const std::string& path, std::string_view canonical, bool require,
                        std::string& out, Diags& d) {
  const schema::FieldRow& row = row_of(canonical);
  return {canonical,
          [&n, &path, &row, require, &out, &d](const YNode*, const std::string&) {
            if (const YNode* v = member(n, path, "name", require, row.spec.help, d))
              if (auto t = read_field(*v, join_path(path, "name"), row, d)) out = t->text;
          },
          true};
}

bool read_mapping(const YNode& n, const std::string& path, std::string_view canonical,
                  const schema::FieldSite& site, Diags& d, std::span<const ChildReader> children) {
  if (!expect_mapping(n, path, d)) return false;
  if (const auto* keys = schema_keys(std::string(canonical))) check_keys(n, path, *keys, d);
  for (const schema::FieldRow* r : schema::child_rows(canonical)) {
    const std::string key(schema::field_key(*r));
    if (key == "<dtype>" || key == "*") continue;  // keyed by value: the parent's reader
    const std::string child = join_path(path, key);
    const ChildReader* reader = reader_of(children, r->path);
    if (reader && reader->absent_too) {
      reader->read(n.find(key), child);
      continue;
    }
    const bool mapping = r->use == schema::FieldUse::mapping && !r->list;
    if (!reader && !has_slot(*r) && !mapping) continue;  // read by the caller
    const YNode* v = field_member(n, path, *r, d);
    if (!v) continue;
    if (reader)
      reader->read(v, child);
    else if (has_slot(*r))
      read_slot(*v, child, *r, site, d);
    else
      read_mapping(*v, child, r->path, site, d, children);
  }
  return true;
}

}  // namespace tessera::loader
