#include "report/text/parallelism_label.hpp"

namespace tessera {

void KnobsSeen::see(const ParallelConfig& c) {
  if (c.cp != 1) cp = true;
  if (!any_) {
    any_ = true;
    first_ = c;
    return;
  }
  kv = kv || c.kv_shard_mode != first_.kv_shard_mode;
  ffn = ffn || c.ffn_shard_scope != first_.ffn_shard_scope;
  tp_at = tp_at || c.tp_placement != first_.tp_placement;
  cp_at = cp_at || c.cp_placement != first_.cp_placement;
  ring = ring || c.cp_ring_variant != first_.cp_ring_variant;
}

std::string parallelism_label(const MachineSpec& m, const ParallelConfig& c, const KnobsSeen& k,
                              const std::string& dp) {
  std::string s;
  if (k.cp) s += "cp" + std::to_string(c.cp) + ' ';
  s += "tp" + std::to_string(c.tp) + " pp" + std::to_string(c.pp) + " dp" +
       (dp.empty() ? std::to_string(c.dp) : dp) + " ep" + std::to_string(c.ep);
  if (k.kv) s += std::string(" kv=") + kv_shard_mode_name(c.kv_shard_mode);
  if (k.ffn) s += std::string(" ffn=") + ffn_shard_scope_name(c.ffn_shard_scope);
  if (k.tp_at) s += " tp@" + m.placement_name(c.tp_placement);
  if (k.cp_at) s += " cp@" + m.placement_name(c.cp_placement);
  if (k.ring) s += std::string(" ring=") + cp_ring_variant_name(c.cp_ring_variant);
  return s;
}

}  // namespace tessera
