#pragma once
// What a serve scenario's hardware point is ranked by (`tessera explore`, serve_exploration.hpp):
// the serving study's best value within the SLO on each of its axes (the scenario's objectives),
// the disaggregated pair's cost per million tokens by the same price model over both pools' PEs
// (docs/physics.md §9 "Price"), and the ranking per objective.
#include <cstddef>
#include <string>
#include <vector>

#include "analysis/serving/disagg_study.hpp"
#include "analysis/serving/serve_study.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"

namespace tessera {

// The best value within the SLO on each of `r.axes` (its direction's best over the frontier, which
// holds every axis's best); NaN where no point is within the SLO.
TESSERA_API std::vector<double> best_on_axes(const ServeResult& r);

// The pair's USD per million output tokens on the pools' sessions: capital of x prefill and y
// decode instances on their machines plus electricity at each machine's price.power, over the
// pair's output tokens/s, with the coefficients of the scenario's cost_per_mtok objective. NaN
// with `why` set when a pool's machine states no price.power (the energy block's electricity
// needs each pool's step energy, which the pairing does not keep).
TESSERA_API double pair_cost_per_mtok(const Session& prefill, const Session& decode, const DisaggPair& p,
                                      std::string& why);

// The points' order by `values` (one per point) in `direction`: the best first, NaN last, ties in
// the grid's order.
TESSERA_API std::vector<std::size_t> rank_by(const std::vector<double>& values, Direction direction);

}  // namespace tessera
