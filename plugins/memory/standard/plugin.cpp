// Entry of memory/standard.
#include "standard.hpp"

namespace {

const tessera::ParamSpec kParams[] = {
    {"reserve", tessera::ParamType::quantity, tessera::Dimension::bytes, "0 GB", 0, tessera::kNoMax, nullptr,
     0, "HBM per PE set aside for the runtime (CUDA context, allocator slack), off the budget"},
};

tessera::PluginObject* create(const tessera::ParamSet& p) {
  return new tessera::plugins::StandardMemory(p.real("reserve"));
}

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::memory,
    .name = "standard",
    .version = "1.0.0",
    .summary = "weights + KV cache + transient activations per PE on the most loaded pipeline stage "
               "(docs/physics.md §10)",
    .params = kParams,
    .create = &create,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
