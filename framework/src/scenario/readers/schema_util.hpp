#pragma once
// Typed reading of YAML tree values with diagnostics: every getter records what was expected
// and what was found under the key's dotted path, and returns nullopt on a problem.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scenario/fields/field_table.hpp"
#include "scenario/readers/yaml_tree.hpp"
#include "tessera/dtype.hpp"
#include "tessera/units.hpp"

namespace tessera::loader {

// Reports `path: expected a mapping, found ...` unless `n` is a mapping.
bool expect_mapping(const YNode& n, const std::string& path, Diags& d);

// Reports every key of mapping `n` not in `allowed` (with "did you mean").
void check_keys(const YNode& n, const std::string& path, const std::vector<std::string>& allowed, Diags& d);

// "missing required key"; `what` describes the expected value.
void report_missing(const YNode& map, const std::string& path, const std::string& key,
                    const std::string& what, Diags& d);

// Scalar readers of one node at `path`.
// `limit`, when given, names a row of the limit table (tessera/limits.hpp) bounding the value
// from above: "model.dimension" for model dimensions, "machine.pes" for fanouts.
std::optional<std::int64_t> read_int(const YNode& n, const std::string& path, Diags& d, std::int64_t min = 1,
                                     const char* limit = nullptr);
std::optional<double> read_real(const YNode& n, const std::string& path, Diags& d);
std::optional<double> read_quantity(const YNode& n, const std::string& path, Dimension dim, Diags& d,
                                    bool allow_zero = false);
// A token count, at most the limit workload.tokens.
std::optional<std::int64_t> read_tokens(const YNode& n, const std::string& path, Diags& d);
std::optional<bool> read_bool(const YNode& n, const std::string& path, Diags& d);
std::optional<std::string> read_string(const YNode& n, const std::string& path, Diags& d);
std::optional<DType> read_dtype(const YNode& n, const std::string& path, Diags& d);
// One of `choices` (case-sensitive, with "did you mean").
std::optional<std::string> read_choice(const YNode& n, const std::string& path,
                                       const std::vector<std::string>& choices, Diags& d);

// Mapping-member helpers: nullptr (and, when `required`, a "missing" error) when absent.
const YNode* member(const YNode& map, const std::string& path, const std::string& key, bool required,
                    const std::string& what, Diags& d);

// True for a plain scalar that YAML would read as a number, a boolean or null.
bool looks_non_string(const YNode& n);

// " (did you mean 'PREFIX.x.SUFFIX'?)" for the candidates nearest to `name` (compared alone,
// shown as full paths); "" when nothing is close.
std::string did_you_mean_path(const std::string& name, const std::vector<std::string>& candidates,
                              const std::string& prefix, const std::string& suffix = "");

// Reports every entry of `values` equal to an earlier one ("PATH: the value X is listed twice"),
// at its own item (`items[k]` wrote values[k]), in list order, in O(n log n) (docs/limits.md
// "Work"): sort (value, position) pairs; every entry after the first of its value is a repeat.
// Returns whether there was none.
// The items of a list, or a single value as a list of one.
std::vector<const YNode*> items_of(const YNode& n);

// A list longer than the limit list.values: refused at the list, before any item is read.
bool list_too_long(const YNode& n, std::size_t size, const std::string& path, Diags& d);

template <class T>
bool report_repeats(const std::vector<T>& values, const std::vector<const YNode*>& items,
                    const std::string& path, Diags& d) {
  std::vector<std::pair<T, std::size_t>> order(values.size());
  for (std::size_t k = 0; k < values.size(); ++k) order[k] = {values[k], k};
  std::sort(order.begin(), order.end());
  std::vector<bool> repeat(values.size(), false);
  for (std::size_t k = 1; k < order.size(); ++k)
    if (order[k].first == order[k - 1].first) repeat[order[k].second] = true;
  bool ok = true;
  for (std::size_t k = 0; k < values.size(); ++k)
    if (repeat[k]) {
      d.error(items[k]->where, path + ": the value " + items[k]->value + " is listed twice");
      ok = false;
    }
  return ok;
}

std::string join_names(const std::vector<std::string>& names, const char* last_sep = " or ");

// The choices of an enumeration row, the i-th naming the enum's i-th value (the field table
// declares them in the enum's order; tests/scenario/test_field_table.cpp checks the SDK's names).
template <typename E>
std::vector<std::pair<std::string, E>> row_choices(const std::string& path) {
  std::vector<std::pair<std::string, E>> out;
  const schema::FieldRow* row = schema::find_field(path);
  for (std::uint32_t i = 0; row && i < row->spec.choice_count; ++i)
    out.emplace_back(row->spec.choices[i].value, static_cast<E>(i));
  return out;
}

}  // namespace tessera::loader
