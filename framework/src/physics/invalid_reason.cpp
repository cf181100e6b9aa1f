#include <cstdint>
#include <string>

#include "tessera/physics/layout.hpp"

namespace tessera {

std::string describe_invalid(InvalidReason r, const ModelSpec& model, const MachineSpec& machine,
                             const ParallelConfig& c) {
  const auto s = [](auto v) { return std::to_string(v); };
  switch (r) {
    case InvalidReason::none:
      return "";
    case InvalidReason::bad_knob:
      return "every numeric knob must be at least 1";
    case InvalidReason::tp_not_dividing_heads:
      return "tp=" + s(c.tp) + " does not divide heads=" + s(model.heads);
    case InvalidReason::tp_kv_heads_mismatch:
      return "tp=" + s(c.tp) + " and kv_heads=" + s(model.kv_heads) + ": neither divides the other";
    case InvalidReason::pp_exceeds_layers:
      return "pp=" + s(c.pp) + " exceeds layers=" + s(model.layers);
    case InvalidReason::ep_without_experts:
      return "ep=" + s(c.ep) + " but the model has no experts";
    case InvalidReason::ep_not_dividing_experts:
      return "ep=" + s(c.ep) + " does not divide experts=" + s(model.moe.experts) +
             (model.moe.eplb && model.moe.redundant_experts > 0
                  ? " + " + s(model.moe.redundant_experts) + " redundant (serving.eplb)"
                  : std::string());
    case InvalidReason::ep_not_dividing_ffn_group:
      return "ep=" + s(c.ep) + " does not divide the FFN shard group (" +
             ffn_shard_scope_name(c.ffn_shard_scope) + ")";
    case InvalidReason::pe_group_exceeds_fanout: {
      std::int64_t on_pe = 1;
      if (c.tp_placement == 0) on_pe *= c.tp;
      if (c.cp_placement == 0) on_pe *= c.cp;
      return "groups placed on the " + machine.pe.name + " need " + s(on_pe) + " " + machine.pe.name +
             "s in one " + machine.levels.front().name + ", which holds " + s(machine.levels.front().fanout);
    }
    case InvalidReason::exceeds_machine: {
      // "dp=4 x tp=8 needs 32 gpus; the machine has 16 (16 missing)": the degrees above 1 that
      // multiply into the PE count, the count, and how many PEs the machine lacks.
      std::string degrees;
      const auto degree = [&](const char* name, std::int64_t v) {
        if (v <= 1) return;
        degrees += (degrees.empty() ? "" : " x ") + std::string(name) + "=" + s(v);
      };
      degree("dp", c.dp);
      degree("tp", c.tp);
      degree("cp", c.cp);
      degree("pp", c.pp);
      if (degrees.empty()) degrees = "the configuration";
      const std::int64_t have = machine.total_pes();
      return degrees + " needs " + s(c.pes()) + " " + machine.pe.name + "s; the machine has " + s(have) +
             " (" + s(c.pes() - have) + " missing)";
    }
    case InvalidReason::exceeds_hierarchy: {
      const std::string top = machine.levels.empty() ? std::string("machine") : machine.levels.back().name;
      const std::string below = machine.levels.size() >= 2
                                    ? machine.levels[machine.levels.size() - 2].name + "s"
                                    : machine.pe.name + "s";
      return "the placements (tp on " + machine.placement_name(c.tp_placement) + ", cp on " +
             machine.placement_name(c.cp_placement) + ") need " + s(top_level_units_needed(machine, c)) +
             " " + below + " in the " + top + ", which holds " +
             s(machine.levels.empty() ? 1 : machine.levels.back().fanout);
    }
    case InvalidReason::tree_in_prefill:
      return "cp_ring_variant=tree is decode-only";
    case InvalidReason::placement_out_of_range:
      return "placement level beyond the machine's hierarchy (members must be distinct units below the top "
             "level)";
  }
  return "invalid";
}

}  // namespace tessera
