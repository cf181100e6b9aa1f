// A machine file and its raw machine blocks (scenario/machine_file.hpp).
#include "scenario/machine_file.hpp"

#include <yaml-cpp/yaml.h>

#include "host/plugin_roles.hpp"
#include "scenario/scenario_loader.hpp"
#include "tessera/error.hpp"

namespace tessera {

MachineFile read_machine_file(const std::string& file) {
  MachineFile m;
  m.spec = load_machine_file(file);
  // The raw blocks (`plugins:` one per plugin, and the top-level keys a plugin may declare as its
  // block: `efficiency:`), validated later against the latency plugin that reads them.
  const auto read_block = [&](const YAML::Node& block, std::vector<RawParam>& out) {
    for (const auto& kv : block) {
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
      out.push_back(std::move(p));
    }
  };
  try {
    const YAML::Node root = YAML::LoadFile(file);
    for (const std::string_view key : kMachineBlockKeys)
      if (const YAML::Node ef = root[std::string(key)]; ef && ef.IsMap()) {
        MachineBlock b;
        b.key = key;
        b.label = "machine '" + b.key + "'";
        read_block(ef, b.params);
        m.blocks.push_back(std::move(b));
      }
    if (const YAML::Node pl = root["plugins"]; pl && pl.IsMap())
      for (const auto& kv : pl)
        if (kv.second.IsMap()) {
          MachineBlock b;
          b.plugin = kv.first.as<std::string>();
          b.label = "machine.plugins." + b.plugin;
          read_block(kv.second, b.params);
          m.blocks.push_back(std::move(b));
        }
  } catch (const YAML::Exception& e) {
    throw InputError(file + ": error: " + e.msg);
  }
  return m;
}

}  // namespace tessera
