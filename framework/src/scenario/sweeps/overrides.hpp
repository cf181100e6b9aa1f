#pragma once
// Dotted-path overrides (`overrides:` in a scenario, `--set key=value` on the command line),
// applied to the YAML tree before typed parsing so that a bad value points at the override.
#include <string>
#include <vector>

#include "scenario/readers/yaml_tree.hpp"

namespace tessera::loader {

struct Override {
  std::string path;      // "machine.pe.hbm.bandwidth"
  YNode value;           // located at the override's value (or <command line>)
  SourceLocation where;  // the override's key (or <command line>)
  std::string label;     // how messages name it: "overrides: machine.x" / "--set machine.x=1"
  std::string base_dir;  // folder relative model/machine paths are resolved against
};

// The scenario's `overrides:` mapping, in file order.
std::vector<Override> file_overrides(const YNode& root, const std::string& scenario_dir, Diags& d);
// `--set key=value` items, in command-line order.
std::vector<Override> cli_overrides(const std::vector<std::string>& set, Diags& d);

// Applies one override to the scenario tree (whose `model` and `machine` are already the
// resolved mappings). Paths into a part listed in `skip` (e.g. "model" when the model could
// not be read) are ignored. A bad path records an error (and the load then fails): mappings the
// walk created on the way to it (an empty `hbm:`, a default plugin choice) may remain.
void apply_override(YNode& root, const Override& o, const std::vector<std::string>& skip, Diags& d);

// `serving.prefill_machine.<path>` / `serving.decode_machine.<path>`: `machine.<path>` applied
// to that pool's machine (already the resolved mapping at serving.<key>), with the same checks;
// messages name the pool's path. False when `o` is not such a path (nothing done).
bool apply_pool_override(YNode& root, const Override& o, const std::vector<std::string>& skip, Diags& d);

// `machine.<path>` when the pools have machines of their own: which pool is meant is ambiguous;
// the error suggests serving.prefill_machine.<path> and serving.decode_machine.<path>.
void refuse_shared_machine_path(const SourceLocation& where, const std::string& label,
                                const std::string& path, Diags& d);

// `text` with every path `machine.` / 'machine' (a word on its own) renamed `to` (a pool
// machine's messages name its own path: serving.decode_machine.pe...).
std::string rename_machine_paths(const std::string& text, const std::string& to);

}  // namespace tessera::loader
