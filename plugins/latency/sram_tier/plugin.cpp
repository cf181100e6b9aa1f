// Entry of latency/sram_tier: the machine block's two parameters (docs/physics.md §7.3).
#include "sram_tier.hpp"

namespace {

using tessera::Dimension;
using tessera::ParamSpec;
using tessera::ParamType;

// Defaults: no SRAM tier (every byte from HBM: the roofline model), so the model runs on any
// machine; a machine gives its tier in `plugins: {sram_tier: {...}}`.
const ParamSpec kMachineParams[] = {
    {"sram_capacity", ParamType::quantity, Dimension::bytes, "0 B", 0, tessera::kNoMax, nullptr, 0,
     "on-chip SRAM per PE that holds streamed bytes (weights, KV) before HBM"},
    {"sram_bandwidth", ParamType::quantity, Dimension::bandwidth, "1 PB/s", 1, tessera::kNoMax, nullptr, 0,
     "bandwidth per PE of bytes served from the SRAM tier"},
};

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::latency,
    .name = "sram_tier",
    .version = "1.0.0",
    .summary = "roofline with an SRAM tier before HBM: streamed bytes up to sram_capacity at sram_bandwidth",
    .machine_params = kMachineParams,
    .create = &tessera::create_default<tessera::plugins::SramTierLatency>,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
