#pragma once
// The MoE exchange kernel a framework version runs in each phase (docs/frameworks.md "MoE per
// phase", docs/physics.md §5 "MoE all-to-all kernels"): the flag that selects a kernel names it
// (`a2a_prefill:` / `a2a_decode:` beside `flag:` in data/frameworks.yaml), so the launch script
// and the step's price agree; a version's `moe_a2a: {prefill, decode, source}` is what runs when
// none of those flags is written. Read by stack_profile.cpp; resolved per scenario by
// scenario_loader.cpp into EvalContext::moe_a2a's table.
#include <array>
#include <string>

#include "scenario/readers/yaml_tree.hpp"
#include "scenario/serving_stacks/stack_profile.hpp"
#include "scenario/serving_stacks/stack_restriction.hpp"
#include "tessera/model.hpp"

namespace tessera::stacks_yaml {

// A flag's `a2a_prefill:` / `a2a_decode:` (at `path`), if present, into f.
void read_flag_a2a(const YNode& flag, const std::string& path, ServingStackFlag& f, Diags& d);
// Version `version`'s `moe_a2a:` (at `path`), if present, into v.moe_a2a.
void read_moe_a2a(const YNode& version, const std::string& path, ServingStackVersion& v, Diags& d);

}  // namespace tessera::stacks_yaml

namespace tessera {

// The kernels of `v` as EvalContext::moe_a2a orders them (prefill or mixed, then decode; each with
// the experts over part of the FFN group, then all of it) for a server of `role` (an aggregated
// server, or a disaggregated prefill or decode pool): the first flag of `v` that names a kernel for
// the phase and holds at an attention-DP configuration (dp 2, tp 2, ep 2 or 4) of that role and
// the scenario's number formats; else `moe_a2a:`; else `fallback`.
TESSERA_API std::array<MoeA2a, 4> stack_moe_a2a(const ServingStackProfile& profile,
                                                const ServingStackVersion& v, const ModelSpec& model,
                                                DeployPoint::Role role,
                                                const std::array<MoeA2a, 4>& fallback);

}  // namespace tessera
