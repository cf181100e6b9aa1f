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

double routed_share(const Collective& c, bool network, double g, double below, double n, double u,
                    double g0) {
  const double K = c.route_top_k;
  if (network) return ((g - 1) * below / u) * (1 - unit_missed(c, u, n)) / K;
  if (below == 1) return ((g0 - 1) + (n - g0) * (u - 1) / u) * (1 - unit_missed(c, 1, n)) / K;
  return (g - 1) * below / n;
}

double routed_one_level_bytes(const Collective& c, double g) {
  if (c.kind != CommKind::all_to_all || c.route_top_k <= 0) return c.bytes;
  return c.bytes * g * (1 - unit_missed(c, 1, g)) / c.route_top_k;
}

double routed_wire_bytes(const Collective& c) {
  const double n = c.ranks;
  const double g0 = c.link.level >= 1 ? std::max(1, c.link.members[0]) : n;
  const double u = std::min(kMaxForwardPeers, g0);
  return c.bytes / c.route_top_k *
         ((g0 - 1) * (1 - unit_missed(c, 1, n)) + (n - g0) / u * (1 - unit_missed(c, u, n)));
}

}  // namespace tessera
