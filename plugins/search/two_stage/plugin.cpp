// Entry of search/two_stage.
#include "two_stage.hpp"

namespace {

const tessera::ParamSpec kParams[] = {
    {"keep", tessera::ParamType::integer, tessera::Dimension::none, "3", 1, tessera::kNoMax, nullptr, 0,
     "K: stage-1 tuples (best first) from which stage 2 climbs, in turn, to a local optimum"},
    {"pair_moves", tessera::ParamType::boolean, tessera::Dimension::none, "true", tessera::kNoMin,
     tessera::kNoMax, nullptr, 0,
     "stage 2 also moves two numeric knobs at once, one grid step each in any directions"},
    {"max_fraction", tessera::ParamType::real, tessera::Dimension::none, "1", 0, 1, nullptr, 0,
     "evaluation budget as a fraction of the valid configurations (never below 8); 1 = no budget. "
     "A budget can stop a climb before its local optimum"},
};

tessera::PluginObject* create(const tessera::ParamSet& p) {
  tessera::plugins::TwoStageOptions o;
  o.keep = p.integer("keep");
  o.pair_moves = p.boolean("pair_moves");
  o.max_fraction = p.real("max_fraction");
  return new tessera::plugins::TwoStageSearch(o);
}

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::search,
    .name = "two_stage",
    .version = "2.0.0",
    .summary = "coarse grid of numeric tuples, then climbs from the best K to local optima over every "
               "discrete value",
    .params = kParams,
    .create = &create,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
