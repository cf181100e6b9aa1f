#pragma once
// Alpha-beta cost of collectives on a group of n ranks (SPEC §3.3). M is per rank:
// all-reduce and reduce-scatter the input, all-gather the output, all-to-all what each
// rank sends, point-to-point the message.
#include <cstdint>

#include "tessera/export.hpp"
#include "tessera/physics/layout.hpp"

namespace tessera {

enum class CommKind : std::uint8_t { none, all_reduce, all_gather, reduce_scatter, all_to_all, p2p };
TESSERA_API const char* comm_kind_name(CommKind k);

struct Collective {
  CommKind kind = CommKind::none;
  std::int32_t ranks = 1;
  double bytes = 0;  // M, per SPEC §3.3
  LinkCost link;
};

// Bytes one rank puts on the wire for the collective (2(n-1)/n M for a ring all-reduce...).
TESSERA_API double collective_wire_bytes(const Collective& c);
// alpha-beta time with the given bandwidth and latency efficiencies (1, 1 = SPEC §3.3).
TESSERA_API double collective_time(const Collective& c, double bw_efficiency = 1.0,
                                   double extra_latency_s = 0.0);

}  // namespace tessera
