// The `collectives:` block of a machine level (docs/scenario-format.md "Collectives").
#include "scenario/collectives_schema.hpp"

#include "scenario/schema_util.hpp"

namespace tessera::loader {

namespace {

const std::vector<std::string> kFabrics = {"nvlink", "xgmi", "pcie", "network", "ici"};
const std::vector<std::string> kKeys = {"fabric", "algorithm", "in_network", "link_efficiency", "ring",
                                        "tree",   "one_shot",  "two_shot",   "direct"};
const std::vector<std::string> kCostKeys = {"base", "hop", "bw_factor"};
const std::vector<std::string> kProtocols = {"ll", "ll128", "simple"};

std::vector<std::string> algorithm_choices() {
  std::vector<std::string> v{"auto"};
  for (int a = 0; a < kCollAlgorithmCount; ++a)
    v.emplace_back(coll_algorithm_name(static_cast<CollAlgorithm>(a)));
  return v;
}

Fabric fabric_of(const std::string& s) {
  for (std::size_t i = 0; i < kFabrics.size(); ++i)
    if (kFabrics[i] == s) return static_cast<Fabric>(i);
  return Fabric::nvlink;
}

// {base: 6.6 us, hop: 0.6 us, bw_factor: 0.25}: each key optional, the others keep `c`.
void read_cost(const YNode& n, const std::string& path, AlgorithmCost& c, Diags& d) {
  if (!expect_mapping(n, path, d)) return;
  check_keys(n, path, kCostKeys, d);
  if (const YNode* b = n.find("base"))
    if (auto v = read_quantity(*b, join_path(path, "base"), Dimension::time, d, true)) c.base = *v;
  if (const YNode* h = n.find("hop"))
    if (auto v = read_quantity(*h, join_path(path, "hop"), Dimension::time, d, true)) c.hop = *v;
  if (const YNode* f = n.find("bw_factor")) {
    const std::string fp = join_path(path, "bw_factor");
    if (auto v = read_real(*f, fp, d)) {
      if (!(*v >= 0 && *v <= 1))
        d.error(
            f->where,
            fp + ": expected a fraction of the bandwidth in [0, 1] (0 = not available), found " + f->value);
      else
        c.bw_factor = *v;
    }
  }
}

// ring: {ll: {...}, ll128: {...}, simple: {...}}
void read_protocols(const YNode& n, const std::string& path, std::array<AlgorithmCost, kProtocolCount>& c,
                    Diags& d) {
  if (!expect_mapping(n, path, d)) return;
  check_keys(n, path, kProtocols, d);
  for (std::size_t p = 0; p < kProtocols.size(); ++p)
    if (const YNode* e = n.find(kProtocols[p])) read_cost(*e, join_path(path, kProtocols[p]), c[p], d);
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
  Fabric fabric = default_fabric(index);
  if (block && expect_mapping(*block, kp, d)) {
    if (const YNode* f = block->find("fabric"))
      if (auto c = read_choice(*f, join_path(kp, "fabric"), kFabrics, d)) fabric = fabric_of(*c);
  }
  LevelCollectives c = fabric_collectives(fabric);
  if (!block || !block->is_mapping()) {
    level.collectives = c;
    return;
  }
  c.described = true;
  check_keys(*block, kp, kKeys, d);
  if (const YNode* a = block->find("algorithm"))
    if (const std::uint32_t mask = read_algorithms(*a, join_path(kp, "algorithm"), d)) c.algorithms = mask;
  if (const YNode* in = block->find("in_network")) {
    const std::string ip = join_path(kp, "in_network");
    if (in->is_mapping()) {
      c.in_network = true;
      read_cost(*in, ip, c.in_network_cost, d);
    } else if (!in->is_scalar()) {
      d.error(in->where,
              ip + ": expected true, false or a mapping of constants {base, hop, bw_factor}, found " +
                  describe(*in));
    } else if (auto b = read_bool(*in, ip, d)) {
      c.in_network = *b;
    }
  }
  if (const YNode* e = block->find("link_efficiency")) {
    const std::string ep = join_path(kp, "link_efficiency");
    if (auto v = read_real(*e, ep, d)) {
      if (!(*v > 0 && *v <= 1))
        d.error(e->where, ep + ": expected the achievable fraction of link_bw in (0, 1], found " + e->value);
      else
        c.link_efficiency = *v;
    }
  }
  if (const YNode* r = block->find("ring")) read_protocols(*r, join_path(kp, "ring"), c.ring, d);
  if (const YNode* t = block->find("tree")) read_protocols(*t, join_path(kp, "tree"), c.tree, d);
  if (const YNode* o = block->find("one_shot")) read_cost(*o, join_path(kp, "one_shot"), c.one_shot, d);
  if (const YNode* w = block->find("two_shot")) read_cost(*w, join_path(kp, "two_shot"), c.two_shot, d);
  if (const YNode* x = block->find("direct")) read_cost(*x, join_path(kp, "direct"), c.direct, d);
  level.collectives = c;
}

}  // namespace tessera::loader
