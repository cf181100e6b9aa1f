#pragma once
// serving.eplb and the pools' eplb checked across the scenario (docs/scenario-format.md "Expert
// load balancing"), and applied to the effective model (MoESpec::eplb, redundant_experts).
#include "scenario/readers/yaml_tree.hpp"
#include "scenario/scenario.hpp"

namespace tessera::loader {

// With the framework chosen and the sweep it left: a MoE model; a framework version that writes
// EPLB's flags; every ep the balancer meets > 1 and dividing E + R (throws InputErrors). Then
// serving.eplb is applied to `model` (a pool's own eplb is applied to its session's copy:
// pool_sessions).
void check_eplb(const YNode& tree, const Scenario& s, ModelSpec& model);

// `model` with `spec` applied (the scenario's effective model of a pool).
void apply_eplb(const EplbSpec& spec, ModelSpec& model);

}  // namespace tessera::loader
