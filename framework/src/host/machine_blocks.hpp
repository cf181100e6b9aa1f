#pragma once
// A machine's per-plugin blocks (`plugins: {calibrated: {...}, sram_tier: {...}}` in the machine
// file) as written, validated by each plugin's machine schema only when that plugin runs. The
// older `efficiency:` block is `calibrated`'s block (docs/scenario-format.md "Machine file").
#include <string>
#include <string_view>
#include <vector>

#include "host/plugin_choice.hpp"
#include "host/plugin_defaults.hpp"

namespace tessera {

// The plugin that reads the older `efficiency:` block (host/plugin_defaults.hpp).
inline constexpr std::string_view kEfficiencyBlockPlugin = plugin_defaults::kEfficiencyBlockPlugin;

struct MachineBlock {
  std::string plugin;            // the plugin that reads it (names are unique across kinds)
  std::string label;             // "machine.plugins.sram_tier", or "machine 'efficiency'"
  std::vector<RawParam> params;  // as written
  SourceLocation where;          // of the block's key
};

// The block `plugin` reads, or nullptr (its machine parameters then take their defaults): its own,
// or for the model that falls back on calibrated (plugin_defaults::kFallsBackOnCalibrated) without
// a block of its own, calibrated's.
inline const MachineBlock* find_machine_block(const std::vector<MachineBlock>& blocks,
                                              std::string_view plugin) {
  for (const MachineBlock& b : blocks)
    if (b.plugin == plugin) return &b;
  if (plugin == plugin_defaults::kFallsBackOnCalibrated)
    return find_machine_block(blocks, kEfficiencyBlockPlugin);
  return nullptr;
}

}  // namespace tessera
