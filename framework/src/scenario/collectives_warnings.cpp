#include "scenario/collectives_warnings.hpp"

#include "core/text/safe_text.hpp"
#include "scenario/readers/yaml_tree.hpp"
#include "scenario/schemas/collectives_schema.hpp"

namespace tessera {

using loader::Diags;
using loader::YNode;

namespace {

// The machine file's `levels:` items (nullptr when the file or the list cannot be read).
const YNode* levels_of(const YNode& root, bool in_scenario) {
  const YNode* m = in_scenario ? root.find("machine") : &root;
  if (!m || !m->is_mapping()) return nullptr;
  const YNode* l = m->find("levels");
  return l && l->is_sequence() ? l : nullptr;
}

}  // namespace

std::vector<Diagnostic> default_collectives_warnings(const MachineSpec& m, const std::string& machine_file,
                                                     const std::string& scenario_file) {
  std::vector<Diagnostic> out;
  const bool in_scenario = machine_file == "inline";
  const std::string file = in_scenario ? scenario_file : machine_file;
  Diags ignored;
  std::optional<YNode> tree;
  if (!file.empty()) tree = loader::read_yaml_file(file, "", ignored);
  const YNode* items = tree ? levels_of(*tree, in_scenario) : nullptr;
  for (std::size_t i = 0; i < m.levels.size(); ++i) {
    const LevelSpec& l = m.levels[i];
    SourceLocation where{file, 0, 0};
    if (items && i < items->items.size()) where = items->items[i].where;
    const LevelCollectives& c = l.collectives;
    const std::string at = "machine.levels." + l.name + ".collectives";
    // What the block asks for but the level cannot run (docs/physics.md §5): said, not ignored.
    if (c.described && c.in_network && c.allows(CollAlgorithm::in_network) &&
        l.topology != LinkTopology::switched)
      out.push_back(Diagnostic{where, at +
                                          ".in_network: in-network reduction needs a switch; this level is " +
                                          topology_name(l.topology) + ", so no collective uses it"});
    const auto mask = [](std::initializer_list<CollAlgorithm> as) {
      std::uint32_t b = 0;
      for (CollAlgorithm a : as) b |= 1u << static_cast<unsigned>(a);
      return b;
    };
    const std::uint32_t reduce =
        mask({CollAlgorithm::ring, CollAlgorithm::nccl_ring, CollAlgorithm::nccl_tree,
              CollAlgorithm::one_shot, CollAlgorithm::two_shot, CollAlgorithm::in_network});
    const std::uint32_t a2a = mask({CollAlgorithm::ring, CollAlgorithm::direct});
    if (c.described && (c.algorithms & reduce) == 0)
      out.push_back(Diagnostic{where, at + ".algorithm: allows no all-reduce algorithm; all-reduces on this "
                                           "level are priced by the legacy ring"});
    if (c.described && (c.algorithms & a2a) == 0)
      out.push_back(Diagnostic{where, at + ".algorithm: allows no all-to-all algorithm (direct or ring); "
                                           "all-to-alls on this level are priced by the legacy ring"});
    if (l.collectives.described) continue;
    const char* fabric = fabric_name(loader::default_fabric(i));
    out.push_back(Diagnostic{
        where, "machine.levels." + l.name +
                   ": no `collectives:` block; its collectives run on the documented defaults of the " +
                   fabric + " fabric (NCCL " + (i == 0 ? "NVLink" : "NET") +
                   " constants; docs/physics.md §5 \"Defaults per fabric\"). Describe the level's fabric "
                   "with `collectives: {fabric: ...}` and cite its constants (docs/scenario-format.md "
                   "\"Collectives\")"});
  }
  return out;
}

std::string format_warning(const Diagnostic& d) {
  const std::string loc = Diagnostic{d.where, ""}.format();  // "FILE:L:C: error: "
  const std::string tag = "error: ";
  const std::string prefix = loc.size() >= tag.size() ? loc.substr(0, loc.size() - tag.size()) : loc;
  return prefix + "warning: " + printable_message(d.message);
}

}  // namespace tessera
