// latency/cache_tier: roofline whose streamed bytes come, up to `cache_capacity` per PE, from a
// cache at `cache_bandwidth`, the rest from HBM. Both are machine-block parameters: a machine
// gives them in `plugins: {cache_tier: {cache_capacity: ..., cache_bandwidth: ...}}`, a scenario
// sweeps them as machine.plugins.cache_tier.<param>. Built out of tree, from the installed SDK only.
#include <algorithm>

#include "tessera/sdk.hpp"

namespace {

using namespace tessera;

class CacheTierLatency final : public LatencyModel {
 public:
  void time_step(const EvalContext& ctx, const StepCall& step, StageList& out) const override {
    const StepWork& work = step.work;
    const ParamSet& block = ctx.machine->efficiency;  // this plugin's machine block, validated
    const double capacity = block.real("cache_capacity");
    const double cache_bw = block.real("cache_bandwidth");
    double streamed = 0;
    for (int i = 0; i < work.size; ++i)
      streamed +=
          work.stages[static_cast<std::size_t>(i)].hbm_bytes * work.stages[static_cast<std::size_t>(i)].count;
    const double f = streamed > 0 ? std::min(1.0, capacity / streamed) : 1.0;
    out.clear();
    for (int i = 0; i < work.size; ++i) {
      const StageWork& w = work.stages[static_cast<std::size_t>(i)];
      StageRates r = peak_rates(ctx, w);
      r.hbm_bw = 1 / (f / cache_bw + (1 - f) / r.hbm_bw);
      time_stage(ctx, w, r, CpOverlap::serial, out.push());
    }
  }
};

const ParamSpec kMachineParams[] = {
    {"cache_capacity", ParamType::quantity, Dimension::bytes, "0 B", 0, kNoMax, nullptr, 0,
     "cache per PE in front of HBM"},
    {"cache_bandwidth", ParamType::quantity, Dimension::bandwidth, "10 TB/s", 1, kNoMax, nullptr, 0,
     "bandwidth per PE of bytes served from the cache"},
};

const PluginDescriptor kDescriptor = make_descriptor({
    .kind = PluginKind::latency,
    .name = "cache_tier",
    .version = "1.0.0",
    .summary = "out-of-tree test: roofline with a cache tier before HBM (two machine-block parameters)",
    .machine_params = kMachineParams,
    .create = &create_default<CacheTierLatency>,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
