// Entry of search/two_stage.
#include "two_stage.hpp"

namespace {

const tessera::ParamSpec kParams[] = {
    {"keep", tessera::ParamType::integer, tessera::Dimension::none, "8", 1, tessera::kNoMax, nullptr, 0,
     "K: stage-1 survivors (best first) from which stage 2 hill-climbs, in turn, while the budget lasts"},
    {"pair_moves", tessera::ParamType::boolean, tessera::Dimension::none, "true", tessera::kNoMin,
     tessera::kNoMax, nullptr, 0,
     "stage 2 also moves two numeric knobs at once, one up and one down a grid step"},
    {"max_rounds", tessera::ParamType::integer, tessera::Dimension::none, "32", 1, tessera::kNoMax, nullptr,
     0, "hill-climb steps per survivor at most, in units of 8 steps"},
    {"max_fraction", tessera::ParamType::real, tessera::Dimension::none, "0.18", 0, 1, nullptr, 0,
     "evaluation budget as a fraction of the valid configurations (never below 8 configurations)"},
};

tessera::PluginObject* create(const tessera::ParamSet& p) {
  tessera::plugins::TwoStageOptions o;
  o.keep = p.integer("keep");
  o.pair_moves = p.boolean("pair_moves");
  o.max_rounds = p.integer("max_rounds");
  o.max_fraction = p.real("max_fraction");
  return new tessera::plugins::TwoStageSearch(o);
}

const tessera::PluginDescriptor kDescriptor{
    TESSERA_DESCRIPTOR_HEADER(tessera::PluginKind::search, tessera::kSearchInterfaceVersion),
    "two_stage",
    "1.0.0",
    "coarse power-of-4 grid, then hill-climbing neighbourhoods of the best K",
    tessera::kFrameworkVersion,
    kParams,
    4,
    nullptr,
    0,
    &create,
};

}  // namespace

TESSERA_PLUGIN(kDescriptor)
