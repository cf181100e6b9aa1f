#pragma once
// The serving points a serve study evaluates per configuration (sweep.serving: batches, token
// budgets, speculative decoding's draft lengths and acceptance rates; docs/scenario-format.md
// "Serving", docs/physics.md §12.8).
#include <vector>

#include "scenario/scenario.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/serving_model.hpp"

namespace tessera {

// The serving points of the scenario's sweep, batch major, then the token budget, the draft length
// k and the acceptance rate (sweep.serving: an empty list is the one default, batch 1, token budget
// 0 = no limit; k and the acceptance are serving.speculative's, k = 0 without it), each with the
// tokens a verify step gains at its k and acceptance; a point that drafts nothing (k = 0) is one
// point whatever rates are swept. `acceptances` (optional): each point's geometric acceptance rate
// (< 0: none, or a table by position).
TESSERA_API std::vector<ServingPoint> serving_points(const Sweep& sweep, const SpeculativeSpec& spec,
                                                     std::vector<double>* acceptances = nullptr);

}  // namespace tessera
