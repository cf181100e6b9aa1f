// A configuration's knobs as JSON: config_json.hpp.
#include "studies/json/config_json.hpp"

namespace tessera {

nlohmann::json config_json(const ParallelConfig& c, const MachineSpec& m) {
  return {{"cp", c.cp},
          {"tp", c.tp},
          {"pp", c.pp},
          {"dp", c.dp},
          {"ep", c.ep},
          {"kv_shard_mode", kv_shard_mode_name(c.kv_shard_mode)},
          {"ffn_shard_scope", ffn_shard_scope_name(c.ffn_shard_scope)},
          {"tp_placement", m.placement_name(c.tp_placement)},
          {"cp_placement", m.placement_name(c.cp_placement)},
          {"cp_ring_variant", cp_ring_variant_name(c.cp_ring_variant)}};
}

}  // namespace tessera
