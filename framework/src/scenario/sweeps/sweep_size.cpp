#include "scenario/sweeps/sweep_size.hpp"

#include <algorithm>

namespace tessera {

std::uint64_t sweep_grid_points(const Sweep& s) {
  std::uint64_t n = 1;
  for (std::size_t k :
       {s.cp.size(), s.tp.size(), s.pp.size(), s.dp.size(), s.ep.size(), s.kv_shard_mode.size(),
        s.ffn_shard_scope.size(), s.tp_placement.size(), s.cp_placement.size(), s.cp_ring_variant.size()})
    n = saturating_size_mul(n, std::max<std::uint64_t>(1, k));
  return n;
}

std::uint64_t sweep_serving_points(const Sweep& s) {
  std::uint64_t n = saturating_size_mul(std::max<std::uint64_t>(1, s.serving_batch.size()),
                                        std::max<std::uint64_t>(1, s.serving_token_budget.size()));
  // Each draft length that drafts (k > 0) meets every acceptance rate; k = 0 is one point.
  const std::uint64_t rates = std::max<std::uint64_t>(1, s.serving_acceptance.size());
  std::uint64_t drafts = s.serving_speculative_steps.empty() ? rates : 0;
  for (std::int64_t k : s.serving_speculative_steps) drafts += k > 0 ? rates : 1;
  return saturating_size_mul(n, drafts);
}

std::uint64_t sweep_hardware_points(const Sweep& s) {
  std::uint64_t n = 1;
  for (const HardwareAxis& a : s.hardware)
    n = saturating_size_mul(n, std::max<std::uint64_t>(1, a.values.size()));
  return n;
}

}  // namespace tessera
