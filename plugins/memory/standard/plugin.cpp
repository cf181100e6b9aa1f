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

const tessera::PluginDescriptor kDescriptor{
    TESSERA_DESCRIPTOR_HEADER(tessera::PluginKind::memory, tessera::kMemoryInterfaceVersion),
    "standard",
    "1.0.0",
    "weights + KV cache + transient activations per PE on the most loaded pipeline stage (docs/physics.md "
    "§10)",
    tessera::kFrameworkVersion,
    kParams,
    1,
    nullptr,
    0,
    &create,
};

}  // namespace

TESSERA_PLUGIN(kDescriptor)
