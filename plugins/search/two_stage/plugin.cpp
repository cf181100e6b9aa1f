// Entry of search/two_stage.
#include "two_stage.hpp"

namespace {

const tessera::ParamSpec kParams[] = {
    {"keep", tessera::ParamType::integer, tessera::Dimension::none, "4", 1, tessera::kNoMax, nullptr, 0,
     "K: configurations whose neighbourhood each stage-2 round explores (the best not yet explored)"},
    {"pair_moves", tessera::ParamType::boolean, tessera::Dimension::none, "true", tessera::kNoMin, tessera::kNoMax,
     nullptr, 0, "stage 2 also moves two numeric knobs at once, one up and one down a grid step"},
    {"max_rounds", tessera::ParamType::integer, tessera::Dimension::none, "32", 1, tessera::kNoMax, nullptr, 0,
     "stage-2 rounds at most (each continues only while the best improves)"},
};

tessera::PluginObject* create(const tessera::ParamSet& p) {
  tessera::plugins::TwoStageOptions o;
  o.keep = p.integer("keep");
  o.pair_moves = p.boolean("pair_moves");
  o.max_rounds = p.integer("max_rounds");
  return new tessera::plugins::TwoStageSearch(o);
}

const tessera::PluginDescriptor kDescriptor{
    TESSERA_DESCRIPTOR_HEADER(tessera::PluginKind::search, tessera::kSearchInterfaceVersion),
    "two_stage",
    "1.0.0",
    "coarse power-of-4 grid, then hill-climbing neighbourhoods of the best K",
    tessera::kFrameworkVersion,
    kParams,
    3,
    nullptr,
    0,
    &create,
};

}  // namespace

TESSERA_PLUGIN(kDescriptor)
