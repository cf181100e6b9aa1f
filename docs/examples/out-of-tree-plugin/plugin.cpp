// The entry of latency/example: its descriptor (id, version, parameter schema) and factory.
#include "example_latency.hpp"

namespace {

using namespace tessera;

const ParamSpec kParams[] = {
    {"hbm_efficiency", ParamType::real, Dimension::none, "0.8", 0.01, 1.0, nullptr, 0,
     "fraction of the HBM bandwidth that memory-bound kernels achieve"},
    {"alpha", ParamType::quantity, Dimension::time, "0 us", 0.0, kNoMax, nullptr, 0,
     "software latency added to every collective message"},
};

// Parameters arrive validated, defaulted and in SI units: no checks or defaults here.
PluginObject* create(const ParamSet& p) {
  return new example::ExampleLatency(p.real("hbm_efficiency"), p.real("alpha"));
}

const PluginDescriptor kDescriptor = make_descriptor({
    .kind = PluginKind::latency,
    .name = "example",
    .version = "1.0.0",
    .summary = "out-of-tree example: roofline with derated HBM bandwidth and per-message software latency",
    .params = kParams,
    .create = &create,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
