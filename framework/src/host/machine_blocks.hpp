#pragma once
// A machine's per-plugin blocks (`plugins: {calibrated: {...}, sram_tier: {...}}` in the machine
// file) as written, validated by each plugin's machine schema only when that plugin runs. A block
// under a top-level key (the older `efficiency:`) belongs to the latency plugin whose descriptor
// declares that key (host/plugin_roles.hpp; docs/scenario-format.md "Machine file").
#include <string>
#include <string_view>
#include <vector>

#include "host/plugin_choice.hpp"

namespace tessera {

struct MachineBlock {
  std::string plugin;            // the plugin that reads it (names are unique across kinds); "" for
                                 // a block under a top-level key, whose reader declares `key`
  std::string key;               // that key ("efficiency"); "" for a `plugins.<name>` block
  std::string label;             // "machine.plugins.sram_tier", or "machine 'efficiency'"
  std::vector<RawParam> params;  // as written
  SourceLocation where;          // of the block's key
};

// `plugin`'s own block (`plugins.<plugin>`), or nullptr.
inline const MachineBlock* find_machine_block(const std::vector<MachineBlock>& blocks,
                                              std::string_view plugin) {
  for (const MachineBlock& b : blocks)
    if (b.key.empty() && b.plugin == plugin) return &b;
  return nullptr;
}

// The block under top-level key `key`, or nullptr.
inline const MachineBlock* find_keyed_block(const std::vector<MachineBlock>& blocks, std::string_view key) {
  for (const MachineBlock& b : blocks)
    if (!b.key.empty() && b.key == key) return &b;
  return nullptr;
}

}  // namespace tessera
