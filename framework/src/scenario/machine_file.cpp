// A machine file and its raw machine blocks (scenario/machine_file.hpp).
#include "scenario/machine_file.hpp"

#include "scenario/scenario_loader.hpp"
#include "tessera/error.hpp"

namespace tessera {

MachineFile read_machine_file(const std::string& file) {
  // The spec and its raw blocks (`plugins:` one per plugin, `efficiency:`) in one read, validated
  // later against the latency plugin that reads them.
  MachineFile m;
  m.spec = load_machine_file(file, &m.blocks);
  return m;
}

}  // namespace tessera
