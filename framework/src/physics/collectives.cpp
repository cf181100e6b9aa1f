// Alpha-beta collectives (SPEC §3.3): docs/physics.md "Communication".
#include "tessera/physics/collectives.hpp"

namespace tessera {

const char* comm_kind_name(CommKind k) {
  switch (k) {
    case CommKind::none:
      return "none";
    case CommKind::all_reduce:
      return "all-reduce";
    case CommKind::all_gather:
      return "all-gather";
    case CommKind::reduce_scatter:
      return "reduce-scatter";
    case CommKind::all_to_all:
      return "all-to-all";
    case CommKind::p2p:
      return "point-to-point";
  }
  return "?";
}

namespace {
// (bandwidth term multiplier, latency steps) per collective on n ranks.
void ring_factors(const Collective& c, double& bw_factor, double& steps) {
  const double n = c.ranks;
  switch (c.kind) {
    case CommKind::all_reduce:
      bw_factor = 2 * (n - 1) / n;
      steps = 2 * (n - 1);
      return;
    case CommKind::all_gather:
    case CommKind::reduce_scatter:
    case CommKind::all_to_all:
      bw_factor = (n - 1) / n;
      steps = n - 1;
      return;
    case CommKind::p2p:
      bw_factor = 1;
      steps = 1;
      return;
    case CommKind::none:
      break;
  }
  bw_factor = 0;
  steps = 0;
}
}  // namespace

double collective_wire_bytes(const Collective& c) {
  if (c.kind == CommKind::none || (c.kind != CommKind::p2p && c.ranks <= 1)) return 0;
  double f = 0, steps = 0;
  ring_factors(c, f, steps);
  return f * c.bytes;
}

double collective_time(const Collective& c, double bw_efficiency, double extra_latency_s) {
  if (c.kind == CommKind::none || (c.kind != CommKind::p2p && c.ranks <= 1)) return 0;
  double f = 0, steps = 0;
  ring_factors(c, f, steps);
  const double bw = c.link.bandwidth * bw_efficiency;
  const double beta_term = bw > 0 ? f * c.bytes / bw : 0;
  return beta_term + steps * (c.link.latency + extra_latency_s);
}

}  // namespace tessera
