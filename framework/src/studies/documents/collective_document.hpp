#pragma once
// `tessera explain`'s collectives as JSON: the algorithm each communication stage runs and every
// candidate collective_cost() chose from (docs/physics.md §5); their text:
// report/text/collective_explain.hpp.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tessera/export.hpp"
#include "tessera/machine.hpp"
#include "tessera/physics/collectives.hpp"
#include "tessera/physics/step_work.hpp"
#include "tessera/stage.hpp"

namespace tessera {

// "one_shot", "nccl_ring/LL", "in_network", "hierarchical(nccl_tree/LL)"; "" for no algorithm.
TESSERA_API std::string choice_label(const CollectiveChoice& c);
// The stage's recorded algorithm (its slowest collective's), "" when it has none.
TESSERA_API std::string stage_algorithm_label(const Stage& s);

// [{kind, ranks, bytes, algorithm, protocol, shape, seconds, candidates: [...]}] for the
// collectives of `w` priced at the stage's recorded rates; candidates fastest first.
TESSERA_API nlohmann::json stage_collectives_json(const StageWork& w, const Stage& s, const MachineSpec& m);

// What the JSON and the text (report/text/collective_explain.hpp) both state, defined once.
namespace collective_parts {
// The stage's recorded communication rates.
TESSERA_API CommRates rates_of(const Stage& s);
// Every candidate of `c`, fastest first (ties keep collective_cost's order, so the chosen one,
// the first minimum, comes first among equals).
TESSERA_API std::vector<CollectiveChoice> sorted_candidates(const Collective& c, const MachineSpec& m,
                                                            const CommRates& r);
// The level a link runs on (the PE for a group inside one PE).
TESSERA_API std::string level_name(const LinkCost& link, const MachineSpec& m);
// The point-to-point model in words with its numbers.
TESSERA_API std::string p2p_model(const LinkCost& link, const MachineSpec& m, double bytes,
                                  const CommRates& r);
// The chosen candidate's terms in words with their numbers (collective_terms(): base, hops per
// level, bandwidth), "" when it is not broken down.
TESSERA_API std::string terms_model(const Collective& c, const MachineSpec& m, const CommRates& r,
                                    const CollectiveChoice& best);
// An all-to-all's kernel (docs/physics.md §5 "MoE all-to-all kernels"): "deepep_normal" (a token
// once per rank and node holding one of its experts) or "direct" (every copy); "" for other kinds.
TESSERA_API std::string a2a_kernel(const Collective& c);
}  // namespace collective_parts

}  // namespace tessera
