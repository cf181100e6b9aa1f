// The `collectives:` block of a machine level (docs/scenario-format.md "Collectives").
#include "scenario/schemas/collectives_schema.hpp"

#include "scenario/fields/field_reader.hpp"
#include "scenario/fields/mapping_reader.hpp"
#include "scenario/readers/schema_util.hpp"
#include "scenario/schemas/schemas.hpp"

namespace tessera::loader {

namespace {

constexpr const char* kCollectives = "machine.levels.*.collectives";

std::vector<std::string> algorithm_choices() {
  std::vector<std::string> v{"auto"};
  for (int a = 0; a < kCollAlgorithmCount; ++a)
    v.emplace_back(coll_algorithm_name(static_cast<CollAlgorithm>(a)));
  return v;
}

Fabric fabric_of(const std::string& s) {
  for (int f = 0; f < kFabricCount; ++f)
    if (s == fabric_name(static_cast<Fabric>(f))) return static_cast<Fabric>(f);
  return Fabric::nvlink;
}

std::uint32_t read_algorithms(const YNode& n, const std::string& path, Diags& d) {
  const auto choices = algorithm_choices();
  const auto bit = [](const std::string& name) -> std::uint32_t {
    if (name == "auto") return kAutoAlgorithms;
    for (int a = 0; a < kCollAlgorithmCount; ++a)
      if (name == coll_algorithm_name(static_cast<CollAlgorithm>(a))) return 1u << static_cast<unsigned>(a);
    return 0;
  };
  if (n.is_sequence()) {
    std::uint32_t mask = 0;
    if (n.items.empty())
      d.error(n.where, path + ": expected at least one algorithm (" + join_names(choices) + "), found []");
    for (std::size_t i = 0; i < n.items.size(); ++i)
      if (auto c = read_choice(n.items[i], path + "[" + std::to_string(i) + "]", choices, d)) mask |= bit(*c);
    return mask;
  }
  if (auto c = read_choice(n, path, choices, d)) return bit(*c);
  return 0;
}

}  // namespace

Fabric default_fabric(std::size_t index) { return index == 0 ? Fabric::nvlink : Fabric::network; }

void parse_level_collectives(const YNode* block, const std::string& path, std::size_t index, LevelSpec& level,
                             Diags& d) {
  const std::string kp = join_path(path, "collectives");
  const std::string canon = kCollectives;
  Fabric fabric = default_fabric(index);
  if (block && expect_mapping(*block, kp, d)) {
    if (const YNode* f = block->find("fabric"))
      if (auto v = read_field(*f, join_path(kp, "fabric"), row_of(join_path(canon, "fabric")), d))
        fabric = fabric_of(v->text);
  }
  level.collectives = fabric_collectives(fabric);
  if (!block || !block->is_mapping()) return;
  LevelCollectives& c = level.collectives;
  c.described = true;
  schema::FieldSite site;
  site.level = &level;
  // Walked by the field table (scenario/fields/mapping_reader.hpp): link_efficiency and every cost
  // mapping (ring and tree per protocol, one_shot, two_shot, direct) by their rows; the fabric
  // (read above), the algorithm list and in_network (true, false or a mapping) are code.
  const ChildReader children[] = {
      {"machine.levels.*.collectives.fabric", [](const YNode*, const std::string&) {}},
      {"machine.levels.*.collectives.algorithm",
       [&](const YNode* a, const std::string& p) {
         if (const std::uint32_t mask = read_algorithms(*a, p, d)) c.algorithms = mask;
       }},
      {"machine.levels.*.collectives.in_network",
       [&](const YNode* in, const std::string& ip) {
         if (in->is_mapping()) {
           c.in_network = true;
           read_mapping(*in, ip, join_path(canon, "in_network"), site, d);
         } else if (!in->is_scalar()) {
           d.error(in->where,
                   ip + ": expected true, false or a mapping of constants {base, hop, bw_factor}, found " +
                       describe(*in));
         } else if (auto b = read_bool(*in, ip, d)) {
           c.in_network = *b;
         }
       }},
  };
  read_mapping(*block, kp, canon, site, d, children);
}

}  // namespace tessera::loader
