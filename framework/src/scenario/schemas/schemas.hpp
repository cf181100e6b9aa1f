#pragma once
// The three file schemas (model, machine, scenario): their keys (shared with the override
// resolver) and the typed parsers of an already-read YAML tree.
#include <optional>
#include <string>
#include <vector>

#include "scenario/readers/yaml_tree.hpp"
#include "scenario/scenario.hpp"
#include "tessera/export.hpp"

namespace tessera::loader {

// Keys of each mapping of the schemas, by canonical dotted path ("" = a scenario's root;
// "machine.levels.*" = any level). nullptr for a path that holds a value, not a mapping.
TESSERA_API const std::vector<std::string>* schema_keys(const std::string& canonical_path);
// Mappings whose keys are free (plugin parameters, the machine's efficiency block).
TESSERA_API bool schema_free_keys(const std::string& canonical_path);

// Checks `schema_version: 1` and `kind: <expected>` (expected empty: any known kind; the kind
// read is returned). Returns false (with diagnostics) when the header is bad.
bool check_header(const YNode& root, const std::string& expected_kind, std::string* kind_out, Diags& d);

// Model and machine mappings at `path` ("model" / "machine"). `require_name`: files must name
// themselves; an inline mapping may not.
std::optional<ModelSpec> parse_model(const YNode& n, const std::string& path, bool require_name, Diags& d);
// The checks across fields of a parsed model (parse_model runs them): MLA head_dim equal to
// nope_dim + rope_dim (derived when absent), experts with a positive FFN width, a parameter
// count exact in a double (at most 2^53). Reports at `n`'s keys.
void check_model_consistency(const YNode& n, const std::string& path, ModelSpec& m, Diags& d);
// The checks across fields of a parsed machine: the product of the fanouts (total PEs) within
// the limit machine.pes, computed without overflow.
void check_machine_consistency(const YNode& n, const std::string& path, const MachineSpec& m, Diags& d);
std::optional<MachineSpec> parse_machine(const YNode& n, const std::string& path, bool require_name,
                                         std::vector<MachineBlock>* blocks, Diags& d);

// A `dtype: {weights, kv, activations}` block (partial: keys left out keep `out`'s values).
void parse_dtype_block(const YNode& n, const std::string& path, DTypes& out, Diags& d);

// The scenario's own sections (everything but model and machine, which are parsed first).
// `machine` is null when the machine could not be read (placements are then not checked).
void parse_scenario_sections(const YNode& root, const MachineSpec* machine, Scenario& s, Diags& d);

}  // namespace tessera::loader
