// The entry of serving/decode_only: its descriptor (kind serving, id, version, one parameter)
// and factory. TESSERA_PLUGIN exports the one entry the host looks for.
#include "decode_only.hpp"

namespace {

using namespace tessera;

const ParamSpec kParams[] = {
    {"scheduler_delay", ParamType::quantity, Dimension::time, "0 s", 0.0, kNoMax, nullptr, 0,
     "fixed time a request waits before its prefill starts (added to TTFT)"},
};

// Parameters arrive validated, defaulted and in SI units (seconds here).
PluginObject* create(const ParamSet& p) { return new example::DecodeOnlyServing(p.real("scheduler_delay")); }

const PluginDescriptor kDescriptor = make_descriptor({
    .kind = PluginKind::serving,
    .name = "decode_only",
    .version = "1.0.0",
    .summary = "out-of-tree example: continuous batching that ignores prefill's share of the iterations",
    .params = kParams,
    .create = &create,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
