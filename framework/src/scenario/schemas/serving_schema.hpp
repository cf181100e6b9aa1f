#pragma once
// The sections of a `workload.mode: serve` scenario beyond its workload (docs/scenario-format.md
// "Serving"): `sweep.serving` (batches and token budgets) and `serving` (SLOs, the PE budget).
// Outside serve mode both are refused, at their keys.
#include "scenario/readers/yaml_tree.hpp"
#include "scenario/scenario.hpp"

namespace tessera::loader {

// `sweep` is the scenario's sweep mapping (nullptr when absent): its `serving` key is read here,
// the documented defaults filled in when it is left out (serve mode only).
void parse_sweep_serving(const YNode* sweep, Mode mode, Sweep& s, Diags& d);

// `root` is the scenario's root mapping; its `serving` key is read into `out`.
void parse_serving(const YNode& root, Mode mode, ServingSpec& out, Diags& d);

// serving.prefill_machine / serving.decode_machine (already read into s.serving): only with
// serving.disaggregated, and then serving.disaggregated.transfer is required (the pools share no
// machine level); placements written by name must name the same level of each pool machine as of
// `machine` (nullptr: not read). Errors at the key.
void check_pool_machines(const Scenario& s, const MachineSpec* machine, Diags& d);

// "workload.mode: serve only: ..." at the key `key` of mapping `map` when it is present.
void refuse_outside_serve(const YNode& map, const std::string& path, const std::string& key,
                          const std::string& instead, Diags& d);

}  // namespace tessera::loader
