// The names of the collective kinds (tessera/physics/collectives.hpp).
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

}  // namespace tessera
