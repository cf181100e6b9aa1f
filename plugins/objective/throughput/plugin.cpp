// Entry of objective/throughput.
#include "objective.hpp"

namespace {

const tessera::ParamSpec kParams[] = {
    {"pipelined", tessera::ParamType::boolean, tessera::Dimension::none, "true", tessera::kNoMin,
     tessera::kNoMax, nullptr, 0,
     "use the pipeline-full decode throughput when it is reported (pp > 1, batch >= pp)"},
};

tessera::PluginObject* create(const tessera::ParamSet& p) {
  (void)p;
  return new tessera::plugins::ThroughputObjective(p.boolean("pipelined"));
}

const tessera::PluginDescriptor kDescriptor{
    TESSERA_DESCRIPTOR_HEADER(tessera::PluginKind::objective, tessera::kObjectiveInterfaceVersion),
    "throughput",
    "1.0.0",
    "tokens per second, all replicas (pipeline-full decode when reported), tok/s; maximised",
    tessera::kFrameworkVersion,
    kParams,
    1,
    nullptr,
    0,
    &create,
};

}  // namespace

TESSERA_PLUGIN(kDescriptor)
