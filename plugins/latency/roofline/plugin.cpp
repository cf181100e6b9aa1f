// Entry of latency/roofline.
#include "roofline.hpp"

namespace {

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::latency,
    .name = "roofline",
    .version = "1.0.0",
    .summary = "no overlap: peak rates, alpha-beta collectives, each CP ring step pays compute then message",
    .create = &tessera::create_default<tessera::plugins::RooflineLatency>,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
