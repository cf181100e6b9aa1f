#pragma once
// The sweep grid of a scenario as a SearchSpace (docs/specification.md §2.6 "What a sweep covers", §2.8
// "Canonical
// configs"): knob value lists, validity, canonical forms and the stable list of every valid
// canonical configuration.
//
// Compact: the grid is the product of the numeric knobs (cp, tp, pp, dp, ep: "tuples") and a
// block of discrete-knob combinations. Per tuple the index says where its valid configurations
// start (4 bytes per tuple), and per valid configuration only its offset in the block (2 bytes).
// The index is held in pages of consecutive tuples (eval/grid_pages.hpp): all of them while it
// is under kResidentIndexBytes, else only where each page starts, each page rebuilt from the
// validity rules when read, so that memory stays flat however large the grid. The list of
// ParallelConfigs is built only if valid_configs() is called; valid_range() and index_of()
// answer from the pages.
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "eval/grid_pages.hpp"
#include "scenario/scenario.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/search_strategy.hpp"
#include "tessera/machine.hpp"
#include "tessera/model.hpp"
#include "tessera/physics/layout.hpp"
#include "tessera/workload.hpp"

namespace tessera {

class TESSERA_API GridSpace final : public SearchSpace {
 public:
  // Keeps references to model, machine and workload: they must outlive the space. An index
  // larger than `resident_index_bytes` is paged (eval/grid_pages.hpp); the answers are the same.
  GridSpace(const Sweep& sweep, const ModelSpec& model, const MachineSpec& machine, const Workload& workload,
            std::size_t resident_index_bytes = kResidentIndexBytes);
  ~GridSpace() override;

  // The valid canonical configurations of the grid counted without keeping them (the walk the
  // constructor makes, with no index: memory independent of the grid), for sizing a study
  // before it starts (eval/work_size.hpp). The walk stops at the first numeric tuple after
  // more than `stop_above` were found: `more` is then true, and there are at least
  // `configurations` (more than stop_above).
  struct ValidCount {
    std::uint64_t configurations = 0;
    std::uint64_t tuples = 0;  // numeric tuples (cp × tp × pp × dp × ep) of the grid
    bool more = false;
  };
  static ValidCount count_valid(const Sweep& sweep, const ModelSpec& model, const MachineSpec& machine,
                                const Workload& workload,
                                std::uint64_t stop_above = std::numeric_limits<std::uint64_t>::max());

  const std::vector<std::int32_t>& values_cp() const override { return cp_; }
  const std::vector<std::int32_t>& values_tp() const override { return tp_; }
  const std::vector<std::int32_t>& values_pp() const override { return pp_; }
  const std::vector<std::int32_t>& values_dp() const override { return dp_; }
  const std::vector<std::int32_t>& values_ep() const override { return ep_; }
  const std::vector<KvShardMode>& values_kv_shard_mode() const override { return kv_; }
  const std::vector<FfnShardScope>& values_ffn_shard_scope() const override { return ffn_; }
  const std::vector<std::int8_t>& values_tp_placement() const override { return tp_place_; }
  const std::vector<std::int8_t>& values_cp_placement() const override { return cp_place_; }
  const std::vector<CpRingVariant>& values_cp_ring_variant() const override { return ring_; }
  ParallelConfig defaults() const override;
  bool is_valid_canonical(const ParallelConfig& c) const override;
  ParallelConfig canonicalize(const ParallelConfig& c) const override;
  // Built on the first call (thread-safe), then kept: 28 bytes per configuration.
  const std::vector<ParallelConfig>& valid_configs() const override;
  std::size_t valid_range(std::uint64_t first, std::span<ParallelConfig> out) const override;

  // Grid points (product of the list sizes) and valid canonical configurations.
  std::uint64_t enumerated() const { return enumerated_; }
  std::uint64_t valid_count() const override { return count_; }
  // The valid canonical configuration at position i of valid_configs() (i < valid_count()).
  ParallelConfig valid_config(std::uint64_t i) const;
  // Position of a valid canonical config in valid_configs(); -1 when it is not one.
  // O(log) in the knob lists and the tuple's configurations; thread-safe, no allocation.
  std::int64_t index_of(const ParallelConfig& c) const;

  // Whether the index is paged (its pages rebuilt when read, eval/grid_pages.hpp).
  bool paged() const { return resident_.empty(); }

  const ModelSpec& model() const { return model_; }
  const MachineSpec& machine() const { return machine_; }
  const Workload& workload() const { return workload_; }

 private:
  // Discrete combinations: offset d in [0, block_) = ((((kv·|ffn| + ffn)·|tpp| + tpp)·|cpp| + cpp)·|ring| +
  // ring.
  struct ClassTable {
    bool built = false;
    std::vector<std::uint32_t> first_offsets;  // offsets whose canonical form occurs first, ascending
    std::vector<std::int32_t> by_code;         // discrete code of a canonical form -> its first offset, or -1
    std::vector<ParallelConfig> canonical;  // per offset: the canonical discrete knobs (numeric ones unused)
    // Per entry of first_offsets: the first entry with the same layout_key() (the same
    // placement: only kv_shard_mode, or cp_ring_variant in decode, differ), whose validity it shares.
    std::vector<std::uint32_t> same_layout_as;
  };
  struct CountOnly {
    std::uint64_t stop_above;
  };
  // count_only: count_ only (no index), stopping once it exceeds stop_above.
  GridSpace(const Sweep& sweep, const ModelSpec& model, const MachineSpec& machine, const Workload& workload,
            const CountOnly* count_only, std::size_t resident_index_bytes);
  void build_class(unsigned cls, const ParallelConfig& numeric);
  ParallelConfig tuple_config(std::uint64_t t) const;  // numeric knobs of tuple t, discrete at defaults
  // Canonical form of grid point (tuple, offset d) given the tuple's numeric knobs.
  ParallelConfig config_at(const ParallelConfig& numeric, std::uint32_t d) const;
  std::int64_t tuple_of(const ParallelConfig& c) const;  // -1 when a numeric knob is off the grid
  int discrete_code(const ParallelConfig& c) const;
  // The valid canonical configurations of tuple `numeric` (its class built), their block offsets
  // appended to `out` when given; returns how many.
  std::uint64_t walk_tuple(const ParallelConfig& numeric, GridPage* out, Layout& layout,
                           std::vector<InvalidReason>& reasons) const;
  // Keeps the page being filled (its end appended) as resident.
  void close_page(std::shared_ptr<GridPage>& open);
  // Page p built from the validity rules (eval/grid_pages.hpp), its classes built already.
  std::shared_ptr<const GridPage> build_page(std::uint64_t p) const;
  // Page p: resident, or this thread's, the shared cache's, or rebuilt.
  const GridPage& page(std::uint64_t p) const;
  std::uint64_t page_of_tuple(std::uint64_t t) const { return t / page_tuples_; }
  // The page holding valid position i.
  std::uint64_t page_of_position(std::uint64_t i) const;

  const ModelSpec& model_;
  const MachineSpec& machine_;
  const Workload& workload_;
  std::vector<std::int32_t> cp_, tp_, pp_, dp_, ep_;
  std::vector<KvShardMode> kv_;
  std::vector<FfnShardScope> ffn_;
  std::vector<std::int8_t> tp_place_, cp_place_;
  std::vector<CpRingVariant> ring_;
  std::uint64_t enumerated_ = 0;
  // Per numeric knob (cp, tp, pp, dp, ep): value -> position in its list, -1 when absent
  // (empty when the values are too large for a table: binary search then).
  std::array<std::vector<std::int32_t>, 5> position_;
  std::uint64_t tuples_ = 0;
  std::uint32_t block_ = 0;
  std::array<std::int16_t, 256> place_index_{};  // placement value (as uint8) -> dense index, or -1
  int places_ = 0;
  // One table per canonical_class() (physics/layout.hpp): grid points with the same class and
  // discrete knobs canonicalise alike.
  std::array<ClassTable, kCanonicalClasses> classes_;
  std::uint64_t count_ = 0;  // valid canonical configurations
  bool stopped_ = false;     // count_valid: the walk stopped before the last tuple
  bool wide_ = false;        // the block is wider than 65536: 4-byte slots
  // The index in pages of page_tuples_ tuples (eval/grid_pages.hpp): where each page's valid
  // configurations start (pages + 1 entries), and every page while the index is small.
  std::uint64_t page_tuples_ = 1;
  std::vector<std::uint64_t> page_first_;
  std::vector<std::shared_ptr<const GridPage>> resident_;
  std::uint64_t id_ = 0;
  GridPageCache shared_pages_;
  mutable std::once_flag list_once_;
  mutable std::vector<ParallelConfig> list_;
};

}  // namespace tessera
