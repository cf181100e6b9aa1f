#pragma once
#include "tessera/sdk.hpp"

namespace tessera::plugins {

// docs/physics.md §10: per PE, on the most loaded pipeline stage — weights, KV cache and transient
// activations plus communication buffers — against capacity x usable - reserve.
class StandardMemory final : public MemoryModel {
 public:
  explicit StandardMemory(double reserve_bytes) : reserve_bytes_(reserve_bytes) {}
  void evaluate(const EvalContext& ctx, const Workload&, const ParallelConfig& c, const Layout& layout,
                MemoryUsage& out) const override;

 private:
  double reserve_bytes_;
};

}  // namespace tessera::plugins
