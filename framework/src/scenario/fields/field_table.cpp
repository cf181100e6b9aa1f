// The field table (field_table.hpp): the rows of the three file kinds, in document order.
#include "scenario/fields/field_table.hpp"
#include "host/plugin_defaults.hpp"

namespace tessera::schema {

std::span<const FieldRow> field_rows() {
  static const std::vector<FieldRow> rows = [] {
    std::vector<FieldRow> v;
    for (const auto part : {model_field_rows(), machine_field_rows(), scenario_field_rows(),
                            prefix_cache_field_rows(), speculative_field_rows(), pool_field_rows()})
      v.insert(v.end(), part.begin(), part.end());
    return v;
  }();
  return rows;
}

const FieldRow* find_field(std::string_view canonical_path) {
  for (const FieldRow& r : field_rows())
    if (r.path == canonical_path) return &r;
  return nullptr;
}

std::vector<const FieldRow*> child_rows(std::string_view canonical_path) {
  std::vector<const FieldRow*> out;
  for (const FieldRow& r : field_rows()) {
    std::string_view rest = r.path;
    if (!canonical_path.empty()) {
      if (rest.size() <= canonical_path.size() + 1 || !rest.starts_with(canonical_path) ||
          rest[canonical_path.size()] != '.')
        continue;
      rest.remove_prefix(canonical_path.size() + 1);
    }
    if (rest.find('.') == std::string_view::npos) out.push_back(&r);
  }
  return out;
}

FieldStep step_field(std::string_view canonical, std::string_view key) {
  FieldStep st;
  const FieldRow* here = canonical.empty() ? nullptr : find_field(canonical);
  if (here && here->use == FieldUse::mapping && here->list) {
    st.canonical = std::string(canonical) + ".*";
    st.row = here;
    return st;
  }
  const auto children = child_rows(canonical);
  st.is_value = children.empty();
  for (const FieldRow* c : children) {
    const std::string_view k = field_key(*c);
    if (k == "<dtype>") {
      st.keys.insert(st.keys.end(), dtype_names().begin(), dtype_names().end());
      if (dtype_from_name(key) && !st.row) st.row = c;
    } else {
      st.keys.emplace_back(k);
      if (k == key) st.row = c;
    }
  }
  if (st.row) st.canonical = std::string(st.row->path);
  return st;
}

std::string_view field_key(const FieldRow& row) {
  const std::size_t dot = row.path.rfind('.');
  return dot == std::string_view::npos ? row.path : row.path.substr(dot + 1);
}

}  // namespace tessera::schema
