#pragma once
// The sweep grid of a scenario as a SearchSpace (SPEC §2 "What a sweep covers", "Canonical
// configs"): knob value lists, validity, canonical forms and the stable list of every valid
// canonical configuration.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "scenario/scenario.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/search_strategy.hpp"
#include "tessera/machine.hpp"
#include "tessera/model.hpp"
#include "tessera/workload.hpp"

namespace tessera {

struct ParallelConfigHash {
  std::size_t operator()(const ParallelConfig& c) const noexcept;
};

class TESSERA_API GridSpace final : public SearchSpace {
 public:
  // Keeps references to model, machine and workload: they must outlive the space.
  GridSpace(const Sweep& sweep, const ModelSpec& model, const MachineSpec& machine, const Workload& workload);
  ~GridSpace() override;

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
  const std::vector<ParallelConfig>& valid_configs() const override { return valid_; }

  // Grid points (product of the list sizes) and valid canonical configurations.
  std::uint64_t enumerated() const { return enumerated_; }
  std::uint64_t valid_count() const { return valid_.size(); }
  // Position of a valid canonical config in valid_configs(); -1 when it is not one.
  std::int64_t index_of(const ParallelConfig& c) const;

  const ModelSpec& model() const { return model_; }
  const MachineSpec& machine() const { return machine_; }
  const Workload& workload() const { return workload_; }

 private:
  const ModelSpec& model_;
  const MachineSpec& machine_;
  const Workload& workload_;
  std::vector<std::int32_t> cp_, tp_, pp_, dp_, ep_;
  std::vector<KvShardMode> kv_;
  std::vector<FfnShardScope> ffn_;
  std::vector<std::int8_t> tp_place_, cp_place_;
  std::vector<CpRingVariant> ring_;
  std::uint64_t enumerated_ = 0;
  std::vector<ParallelConfig> valid_;
  std::unordered_map<ParallelConfig, std::int64_t, ParallelConfigHash> index_;
};

}  // namespace tessera
