#pragma once
// The scenario's `sweep` section (docs/specification.md §2.9 "Scenario"): the parallelism grid
// (sweep.parallelism: degrees, shard modes, ring variants, placements) and the hardware axes
// (sweep.hardware: machine fields, machine-block and scenario plugin parameters, fields of a
// pool's own machine), each list refused above list.values and each grid above its points
// limit. sweep.serving is read by serving_schema.hpp. The list readers below are shared with the
// other sections (report.scopes).
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/text/nearest_name.hpp"
#include "scenario/readers/schema_util.hpp"
#include "scenario/readers/yaml_tree.hpp"
#include "scenario/scenario.hpp"
#include "tessera/limits.hpp"

namespace tessera::loader {

// `n` is the scenario's `sweep` mapping (nullptr when absent). `machine` types the placements and
// the machine fields (nullptr: the machine could not be read); `serving` holds the pool machines
// whose fields sweep.hardware may name.
void parse_sweep(const YNode* n, const MachineSpec* machine, const ServingSpec* serving, Sweep& s, Diags& d);

// The items of a list, or a single value as a list of one.
inline std::vector<const YNode*> items_of(const YNode& n) {
  std::vector<const YNode*> v;
  if (n.is_sequence())
    for (const auto& i : n.items) v.push_back(&i);
  else
    v.push_back(&n);
  return v;
}

// A sweep list longer than the limit list.values: refused at the list, before any item is read.
inline bool list_too_long(const YNode& n, std::size_t size, const std::string& path, Diags& d) {
  if (size <= current_limits().list_values) return false;
  d.error(n.where, path + ": a list of " + std::to_string(size) + " values " + limit_exceeded("list.values"));
  return true;
}

// A list (or a single value) of the names of `table` (compared case-insensitively when `ci`),
// each value once, in the order first written.
template <typename E>
std::optional<std::vector<E>> choice_list(const YNode& n, const std::string& path,
                                          const std::vector<std::pair<std::string, E>>& table, bool ci,
                                          Diags& d) {
  std::vector<std::string> names;
  for (const auto& [s, e] : table) names.push_back(s);
  const auto items = items_of(n);
  if (list_too_long(n, items.size(), path, d)) return std::nullopt;
  if (items.empty()) {
    d.error(n.where, path + ": expected a list of " + join_names(names) + ", found an empty list");
    return std::nullopt;
  }
  std::vector<E> out;
  bool ok = true;
  for (const YNode* i : items) {
    bool found = false;
    if (i->is_scalar()) {
      for (const auto& [s, e] : table) {
        std::string a = s, b = i->value;
        if (ci) {
          for (auto& ch : a) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
          for (auto& ch : b) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        }
        if (a == b) {
          found = true;
          if (std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
        }
      }
    }
    if (!found) {
      d.error(i->where, path + ": expected one of " + join_names(names) + ", found " + describe(*i) +
                            (i->is_scalar() ? did_you_mean(i->value, names) : std::string()));
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return out;
}

}  // namespace tessera::loader
