#pragma once
// Rows that differ only in data-parallel replicas (docs/specification.md "Rows that
// differ only in dp"): two rows of a table (the top N, a frontier) are one group when every knob
// but dp is the same, so is the serving point, and every objective value but the PE count's is
// exactly equal (the same double, not the same after rounding: a group's numbers are its
// members' numbers, whatever a table prints). The text tables print a group as one row naming
// its ranges (`dp 1–8`, `8–64` PEs); the JSON lists keep every row and name the groups.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "host/plugin_defaults.hpp"
#include "studies/objective_info.hpp"
#include "tessera/parallel_config.hpp"

namespace tessera {

// Is objective `o` the PE count (it grows with dp: left out of the comparison)?
inline bool is_pe_count_objective(const ObjectiveInfo& o) {
  return o.unit == "PE" || o.name == plugin_defaults::kPesObjective;
}

// What must agree within a group: the knobs but dp, then whatever the caller adds (the serving
// point, the objective values but the PE count's), compared bit for bit.
class DpGroupKey {
 public:
  explicit DpGroupKey(const ParallelConfig& c) {
    for (std::int64_t v :
         {std::int64_t{c.cp}, std::int64_t{c.tp}, std::int64_t{c.pp}, std::int64_t{c.ep},
          std::int64_t(c.kv_shard_mode), std::int64_t(c.ffn_shard_scope), std::int64_t{c.tp_placement},
          std::int64_t{c.cp_placement}, std::int64_t(c.cp_ring_variant)})
      add(v);
  }
  void add(std::int64_t v) { bits_.push_back(static_cast<std::uint64_t>(v)); }
  void add(double v) { bits_.push_back(std::bit_cast<std::uint64_t>(v)); }
  bool operator<(const DpGroupKey& o) const { return bits_ < o.bits_; }

 private:
  std::vector<std::uint64_t> bits_;
};

// The groups of `keys` (one per row, in the table's order): each group's rows in that order,
// the groups in the order of their first row.
inline std::vector<std::vector<std::size_t>> dp_groups(const std::vector<DpGroupKey>& keys) {
  std::map<DpGroupKey, std::size_t> at;
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto [it, fresh] = at.emplace(keys[i], groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(i);
  }
  return groups;
}

// "4" or "1–8": the smallest and largest of `values`.
inline std::string value_range(const std::vector<std::int64_t>& values) {
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  if (*lo == *hi) return std::to_string(*lo);
  return std::to_string(*lo) + "\u2013" + std::to_string(*hi);
}

}  // namespace tessera
