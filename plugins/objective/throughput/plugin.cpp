// Entry of objective/throughput.
#include "objective.hpp"

namespace {

const tessera::ParamSpec kParams[] = {
    {"pipelined", tessera::ParamType::boolean, tessera::Dimension::none, "true", tessera::kNoMin,
     tessera::kNoMax, nullptr, 0,
     "use the pipeline-full decode throughput when it is reported (pp > 1, batch >= pp)"},
};

tessera::PluginObject* create(const tessera::ParamSet& p) {
  return new tessera::plugins::ThroughputObjective(p.boolean("pipelined"));
}

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::objective,
    .name = "throughput",
    .version = "1.0.0",
    .summary = "tokens per second, all replicas (pipeline-full decode when reported), tok/s; maximised",
    .params = kParams,
    .create = &create,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
