#include "eval/spec_files.hpp"

#include "scenario/scenario_loader.hpp"

namespace tessera {

const ModelSpec& SpecFiles::model(const std::string& path) {
  auto it = models.find(path);
  if (it == models.end()) it = models.emplace(path, load_model_file(path)).first;
  return it->second;
}

const MachineFile& SpecFiles::machine(const std::string& path) {
  auto it = machines.find(path);
  if (it == machines.end()) it = machines.emplace(path, read_machine_file(path)).first;
  return it->second;
}

}  // namespace tessera
