#pragma once
// YAML -> plugin parameters, written once: the values of a mapping as RawParams (a scalar as
// written, a list of scalars joined by ','), for a plugin's schema to check later — a scenario's
// plugin choice (`{name: calibrated, framework: vllm}`) and a machine's per-plugin blocks
// (`plugins: {sram_tier: {...}}`, `efficiency:`) alike.
#include <string>
#include <string_view>
#include <vector>

#include "host/plugin_choice.hpp"
#include "scenario/readers/yaml_tree.hpp"

namespace tessera::loader {

// The entries of mapping `n` (shown at `path`) except `skip`, appended to `out`; an entry that is
// neither a scalar nor a list of scalars is reported (as "expected <what> or a list of values")
// and left out. `null_as_text`: an explicit `null` is the text "null" (an enumeration may name a
// choice so). Returns false when an entry was refused.
bool read_raw_params(const YNode& n, const std::string& path, std::string_view skip, std::string_view what,
                     bool null_as_text, std::vector<RawParam>& out, Diags& d);

}  // namespace tessera::loader
