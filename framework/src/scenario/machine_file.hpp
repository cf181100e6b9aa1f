#pragma once
// A machine file read on its own (validate-data predicts measured rows machine by machine): the
// typed spec and the file's raw `efficiency:` block, validated later against the chosen
// latency plugin's machine schema.
#include <string>
#include <vector>

#include "host/machine_blocks.hpp"
#include "host/plugin_choice.hpp"
#include "tessera/export.hpp"
#include "tessera/machine.hpp"

namespace tessera {

struct MachineFile {
  MachineSpec spec;  // efficiency left empty
  // `plugins: {<plugin>: {...}}` and the `efficiency:` block, as written (the block a plugin
  // reads: machine_block_for, host/plugin_roles.hpp).
  std::vector<MachineBlock> blocks;
};

// Throws InputErrors (the loader's diagnostics) or InputError (the YAML).
TESSERA_API MachineFile read_machine_file(const std::string& path);

}  // namespace tessera
