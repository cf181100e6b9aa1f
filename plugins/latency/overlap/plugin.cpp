// Entry of latency/overlap.
#include "overlap.hpp"

namespace {

tessera::PluginObject* create(const tessera::ParamSet&) { return new tessera::plugins::OverlapLatency(); }

const tessera::PluginDescriptor kDescriptor{
    TESSERA_DESCRIPTOR_HEADER(tessera::PluginKind::latency, tessera::kLatencyInterfaceVersion),
    "overlap",
    "1.0.0",
    "reference model (default): peak rates, alpha-beta collectives, CP exchange overlapped with attention",
    tessera::kFrameworkVersion,
    nullptr,
    0,
    nullptr,
    0,
    &create,
};

}  // namespace

TESSERA_PLUGIN(kDescriptor)
