#pragma once
// The scenario's `sweep` section (docs/specification.md §2.9 "Scenario"): the parallelism grid
// (sweep.parallelism: degrees, shard modes, ring variants, placements) and the hardware axes
// (sweep.hardware: machine fields, machine-block and scenario plugin parameters, fields of a
// pool's own machine), each list refused above list.values and each grid above its points
// limit, and sweep.serving (serve mode's batches and token budgets).
#include "scenario/readers/yaml_tree.hpp"
#include "scenario/scenario.hpp"

namespace tessera::loader {

// `n` is the scenario's `sweep` mapping (nullptr when absent), read into s.sweep by the field table
// (mapping_reader.hpp); s's workload is read (serve fills sweep.serving's defaults and alone reads
// it). `machine` types the placements and the machine fields (nullptr: the machine could not be
// read); s.serving holds the pool machines whose fields sweep.hardware may name.
void parse_sweep(const YNode* n, const MachineSpec* machine, Scenario& s, Diags& d);

}  // namespace tessera::loader
