#pragma once
// Model and machine files read once each, by path, for evaluating many points on them
// (validate-data: a CSV of 200k rows names a handful of files). The loading step of the
// studies that take files by name: analysis asks here and never includes the scenario loader.
#include <map>
#include <string>

#include "scenario/machine_file.hpp"
#include "tessera/export.hpp"
#include "tessera/model.hpp"

namespace tessera {

struct SpecFiles {
  std::map<std::string, ModelSpec> models;      // by path, as loaded
  std::map<std::string, MachineFile> machines;  // by path, efficiency left raw

  // Loads on the first request of a path; throws the loader's InputError(s).
  TESSERA_API const ModelSpec& model(const std::string& path);
  TESSERA_API const MachineFile& machine(const std::string& path);
};

}  // namespace tessera
