#pragma once
// Kind `search`: which configurations to evaluate, through a "propose / receive scores"
// loop (Timeloop's search interface). The host evaluates what is proposed and reports back.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "tessera/export.hpp"
#include "tessera/parallel_config.hpp"
#include "tessera/plugin/plugin_object.hpp"

namespace tessera {

// The sweep grid and the validity rules, as the search sees them.
class TESSERA_API SearchSpace {
 public:
  virtual ~SearchSpace();
  // Values of each knob in the grid (sorted ascending for numeric knobs).
  virtual const std::vector<std::int32_t>& values_cp() const = 0;
  virtual const std::vector<std::int32_t>& values_tp() const = 0;
  virtual const std::vector<std::int32_t>& values_pp() const = 0;
  virtual const std::vector<std::int32_t>& values_dp() const = 0;
  virtual const std::vector<std::int32_t>& values_ep() const = 0;
  virtual const std::vector<KvShardMode>& values_kv_shard_mode() const = 0;
  virtual const std::vector<FfnShardScope>& values_ffn_shard_scope() const = 0;
  virtual const std::vector<std::int8_t>& values_tp_placement() const = 0;
  virtual const std::vector<std::int8_t>& values_cp_placement() const = 0;
  virtual const std::vector<CpRingVariant>& values_cp_ring_variant() const = 0;
  // Discrete knobs at their scenario defaults (first listed value).
  virtual ParallelConfig defaults() const = 0;
  // Valid and canonical (docs/specification.md §2.7, §2.8).
  virtual bool is_valid_canonical(const ParallelConfig& c) const = 0;
  virtual ParallelConfig canonicalize(const ParallelConfig& c) const = 0;
  // Every valid canonical configuration of the grid, in a stable order.
  virtual const std::vector<ParallelConfig>& valid_configs() const = 0;
  // The same list piecewise, for spaces too large to hold as one (10^7+ configurations): its
  // size, and up to out.size() of its entries from position `first` (returns how many were
  // written; 0 past the end). These defaults read valid_configs(); the host's grid answers
  // both without building the list, so a strategy that walks the space through them keeps
  // memory flat (search/exhaustive does).
  virtual std::uint64_t valid_count() const { return valid_configs().size(); }
  virtual std::size_t valid_range(std::uint64_t first, std::span<ParallelConfig> out) const {
    const std::vector<ParallelConfig>& all = valid_configs();
    if (first >= all.size()) return 0;
    const std::size_t n = std::min<std::size_t>(out.size(), all.size() - static_cast<std::size_t>(first));
    std::copy_n(all.begin() + static_cast<std::ptrdiff_t>(first), n, out.begin());
    return n;
  }
};

// A score as the search sees it: lower is better (the host negates maximised objectives).
struct SearchScore {
  double primary = 0;     // the first objective's value (latency_s when the scenario names none)
  bool feasible = false;  // valid and fits memory
  // Every objective's value, in the scenario's order, oriented as `primary` (objectives[0] is
  // primary). +infinity for an invalid or non-finite configuration. Empty when the scenario
  // names no objective. Valid only during receive().
  std::span<const double> objectives = {};
};

class TESSERA_API SearchRun {
 public:
  virtual ~SearchRun();
  // Writes up to out.size() configurations to evaluate next; returns how many; 0 = done.
  virtual std::size_t propose(std::span<ParallelConfig> out) = 0;
  // The scores of the configurations last proposed, in the same order (duplicates included).
  virtual void receive(std::span<const ParallelConfig> configs, std::span<const SearchScore> scores) = 0;
};

class TESSERA_API SearchStrategy : public PluginObject {
 public:
  ~SearchStrategy() override;
  virtual std::unique_ptr<SearchRun> start(const SearchSpace& space) const = 0;
  // True when a run over a slice of the space (a SearchSpace holding a contiguous range of its
  // valid configurations) proposes exactly the slice's part of what a run over the whole space
  // proposes, whatever receive() is told: the host then plans the search as independent work
  // units, one slice each, computes them in parallel and merges them exactly
  // (docs/architecture.md "Studies: plan, work units, merge"). An exhaustive walk is; a seeded
  // sample of the whole space or an adaptive search is not (the default: one unit).
  virtual bool separable() const { return false; }
};

}  // namespace tessera
