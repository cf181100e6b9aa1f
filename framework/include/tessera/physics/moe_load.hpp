#pragma once
// Load of the most loaded expert-parallel rank (docs/physics.md §4 "MoE load"): a synchronous step runs
// at the slowest rank. Documented approximations, checked against Monte Carlo in tests.
#include <cstdint>

#include "tessera/export.hpp"

namespace tessera {

struct MoELoad {
  double distinct_experts = 0;  // expected distinct experts touched on the most loaded rank
  double token_slots = 0;       // expected token-expert slots routed to the most loaded rank
};

// tokens T_f routed together, each to k distinct of `experts` experts, spread over `ep`
// ranks of experts/ep experts each. `balanced` = the average rank instead of the maximum.
TESSERA_API MoELoad moe_most_loaded_rank(double tokens, std::int64_t experts, std::int64_t k, std::int64_t ep,
                                         bool balanced);

// The router's systematic skew and the deployment's expert-parallel load balancer (EPLB):
// docs/physics.md §4 "MoE load". The default (uniform routing, experts placed by id) is the
// statistical model alone.
struct MoEBalance {
  double load_cv = 0;                  // coefficient of variation of the experts' routed load
  bool eplb = false;                   // the balancer places the experts by their load
  std::int64_t redundant_experts = 0;  // R replicas beside the E experts, (E + R)/ep per rank
};

// The same, and the expected routed load's imbalance: the most loaded rank's expected share
// over the mean rank's (>= 1; exactly 1 for uniform routing). Memoised per (E, ep, balance).
TESSERA_API MoELoad moe_most_loaded_rank(double tokens, std::int64_t experts, std::int64_t k, std::int64_t ep,
                                         bool balanced, const MoEBalance& balance);
TESSERA_API double moe_systematic_imbalance(std::int64_t experts, std::int64_t ep, const MoEBalance& balance);

// Expected maximum of n i.i.d. standard normal variables (exact for n <= 2, Blom beyond).
TESSERA_API double expected_max_std_normal(std::int64_t n);

}  // namespace tessera
