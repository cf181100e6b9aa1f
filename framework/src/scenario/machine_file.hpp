#pragma once
// A machine file read on its own (validate-data predicts measured rows machine by machine): the
// typed spec and the file's raw `efficiency:` block, validated later against the chosen
// latency plugin's machine schema.
#include <map>
#include <string>
#include <vector>

#include "host/machine_blocks.hpp"
#include "host/plugin_choice.hpp"
#include "tessera/export.hpp"
#include "tessera/machine.hpp"

namespace tessera {

struct MachineFile {
  MachineSpec spec;                      // efficiency left empty
  std::vector<RawParam> efficiency_raw;  // the `efficiency:` block as written (calibrated's)
  std::map<std::string, std::vector<RawParam>> plugin_blocks;  // `plugins: {<plugin>: {...}}`
};

// The block `plugin` reads: `efficiency:` for calibrated (or its `plugins.calibrated`), else
// `plugins.<plugin>`; empty when the file has none.
TESSERA_API const std::vector<RawParam>& machine_block_of(const MachineFile& m, const std::string& plugin);

// Throws InputErrors (the loader's diagnostics) or InputError (the YAML).
TESSERA_API MachineFile read_machine_file(const std::string& path);

}  // namespace tessera
