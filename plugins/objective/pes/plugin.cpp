// Entry of objective/pes.
#include "objective.hpp"

namespace {

tessera::PluginObject* create(const tessera::ParamSet& p) {
  (void)p;
  return new tessera::plugins::PesObjective();
}

const tessera::PluginDescriptor kDescriptor{
    TESSERA_DESCRIPTOR_HEADER(tessera::PluginKind::objective, tessera::kObjectiveInterfaceVersion),
    "pes",
    "1.0.0",
    "PEs used (cp*tp*pp*dp); minimised",
    tessera::kFrameworkVersion,
    nullptr,
    0,
    nullptr,
    0,
    &create,
};

}  // namespace

TESSERA_PLUGIN(kDescriptor)
