// A machine file and its raw `efficiency:` block (scenario/machine_file.hpp).
#include "scenario/machine_file.hpp"

#include <yaml-cpp/yaml.h>

#include "scenario/scenario_loader.hpp"
#include "tessera/error.hpp"

namespace tessera {

MachineFile read_machine_file(const std::string& file) {
  MachineFile m;
  m.spec = load_machine_file(file);
  // The raw `efficiency:` block, validated later against the chosen latency plugin.
  try {
    const YAML::Node root = YAML::LoadFile(file);
    if (const YAML::Node ef = root["efficiency"]; ef && ef.IsMap()) {
      for (const auto& kv : ef) {
        RawParam p;
        p.key = kv.first.as<std::string>();
        p.where = SourceLocation{file, kv.second.Mark().line + 1, kv.second.Mark().column + 1};
        if (kv.second.IsSequence()) {
          p.is_list = true;
          for (const auto& item : kv.second) {
            p.items.push_back(item.as<std::string>());
            p.text += (p.text.empty() ? "" : ",") + p.items.back();
          }
        } else {
          p.text = kv.second.as<std::string>();
        }
        m.efficiency_raw.push_back(std::move(p));
      }
    }
  } catch (const YAML::Exception& e) {
    throw InputError(file + ": error: " + e.msg);
  }
  return m;
}

}  // namespace tessera
