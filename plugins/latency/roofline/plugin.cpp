// Entry of latency/roofline.
#include "roofline.hpp"

namespace {

tessera::PluginObject* create(const tessera::ParamSet&) { return new tessera::plugins::RooflineLatency(); }

const tessera::PluginDescriptor kDescriptor{
    TESSERA_DESCRIPTOR_HEADER(tessera::PluginKind::latency, tessera::kLatencyInterfaceVersion),
    "roofline",
    "1.0.0",
    "no overlap: peak rates, alpha-beta collectives, each CP ring step pays compute then message",
    tessera::kFrameworkVersion,
    nullptr,
    0,
    nullptr,
    0,
    &create,
};

}  // namespace

TESSERA_PLUGIN(kDescriptor)
