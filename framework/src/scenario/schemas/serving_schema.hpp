#pragma once
// The `serving` section of a `workload.mode: serve` scenario (docs/scenario-format.md "Serving"):
// SLOs, the PE budget, disaggregation, requests, pool machines' checks. Outside serve mode it is
// refused at its key, as sweep.serving is (sweep_schema.hpp).
#include "scenario/readers/yaml_tree.hpp"
#include "scenario/scenario.hpp"

namespace tessera::loader {

// `root` is the scenario's root mapping; its `serving` key is read into s.serving by the field
// table (mapping_reader.hpp), s's workload read before (outside serve the key is refused).
void parse_serving(const YNode& root, Scenario& s, Diags& d);

// serving.prefill_machine / serving.decode_machine (already read into s.serving): only with
// serving.disaggregated, and then serving.disaggregated.transfer is required (the pools share no
// machine level); placements written by name must name the same level of each pool machine as of
// `machine` (nullptr: not read). Errors at the key.
void check_pool_machines(const Scenario& s, const MachineSpec* machine, Diags& d);

// "workload.mode: serve only: ..." at the key `key` of mapping `map` when it is present.
void refuse_outside_serve(const YNode& map, const std::string& path, const std::string& key,
                          const std::string& instead, Diags& d);

}  // namespace tessera::loader
