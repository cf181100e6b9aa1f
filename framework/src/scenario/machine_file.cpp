// A machine file and its raw machine blocks (scenario/machine_file.hpp).
#include "scenario/machine_file.hpp"

#include <yaml-cpp/yaml.h>

#include "scenario/scenario_loader.hpp"
#include "tessera/error.hpp"

namespace tessera {

MachineFile read_machine_file(const std::string& file) {
  MachineFile m;
  m.spec = load_machine_file(file);
  // The raw blocks (`efficiency:` is calibrated's, `plugins:` one per plugin), validated later
  // against the latency plugin that reads them.
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
    if (const YAML::Node ef = root["efficiency"]; ef && ef.IsMap()) read_block(ef, m.efficiency_raw);
    if (const YAML::Node pl = root["plugins"]; pl && pl.IsMap())
      for (const auto& kv : pl)
        if (kv.second.IsMap()) read_block(kv.second, m.plugin_blocks[kv.first.as<std::string>()]);
  } catch (const YAML::Exception& e) {
    throw InputError(file + ": error: " + e.msg);
  }
  return m;
}

const std::vector<RawParam>& machine_block_of(const MachineFile& m, const std::string& plugin) {
  static const std::vector<RawParam> kNone;
  if (plugin == kEfficiencyBlockPlugin && !m.efficiency_raw.empty()) return m.efficiency_raw;
  const auto it = m.plugin_blocks.find(plugin);
  if (it == m.plugin_blocks.end() && plugin == plugin_defaults::kFallsBackOnCalibrated)
    return machine_block_of(m, std::string(kEfficiencyBlockPlugin));  // host/machine_blocks.hpp
  return it == m.plugin_blocks.end() ? kNone : it->second;
}

}  // namespace tessera
