// Entry of search/random.
#include "random_search.hpp"

namespace {

const tessera::ParamSpec kParams[] = {
    {"samples", tessera::ParamType::integer, tessera::Dimension::none, "2000", 1, tessera::kNoMax, nullptr, 0,
     "configurations to evaluate, drawn without replacement (all of them when the space is smaller)"},
    {"seed", tessera::ParamType::integer, tessera::Dimension::none, "1", 0, tessera::kNoMax, nullptr, 0,
     "seed of the std::mt19937_64 generator: the same seed gives the same sample everywhere"},
};

tessera::PluginObject* create(const tessera::ParamSet& p) {
  return new tessera::plugins::RandomSearch(p.integer("samples"),
                                            static_cast<std::uint64_t>(p.integer("seed")));
}

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::search,
    .name = "random",
    .version = "1.0.0",
    .summary = "a seeded uniform sample, without replacement, of the valid canonical configurations",
    .params = kParams,
    .create = &create,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
