// DeepEP's normal kernels on each level (moe_a2a_routing.hpp, docs/physics.md §5 "MoE all-to-all
// kernels").
#include "physics/moe_a2a_routing.hpp"

#include <algorithm>

namespace tessera {

double unit_missed(const Collective& c, double unit, double n) {
  const double E = c.route_experts, held = E * unit / n;
  if (!(E >= c.route_top_k)) return 0;
  double q = 1;
  for (int j = 0; j < c.route_top_k && q > 0; ++j) q *= std::max(0.0, (E - held - j) / (E - j));
  return q;
}

double routed_share(const Collective& c, bool network, double g, double below, double n) {
  const double K = c.route_top_k;
  if (network) return (g - 1) * (1 - unit_missed(c, below, n)) / K;
  if (below == 1) return (g - 1) * (1 - unit_missed(c, 1, n)) * (n / g) / K;
  return (below * g - below) / n;
}

double routed_one_level_bytes(const Collective& c, double g) {
  if (c.kind != CommKind::all_to_all || c.route_top_k <= 0) return c.bytes;
  return c.bytes * g * (1 - unit_missed(c, 1, g)) / c.route_top_k;
}

}  // namespace tessera
