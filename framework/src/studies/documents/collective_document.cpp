#include "studies/documents/collective_document.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "tessera/physics/level_topology.hpp"
#include "tessera/units.hpp"

namespace tessera {

namespace {

std::string algorithm_protocol(CollAlgorithm a, Protocol p) {
  std::string s = coll_algorithm_name(a);
  if (p != Protocol::none) s += std::string("/") + protocol_name(p);
  return s;
}

// `v` with `places` decimals (report/text/text_table.hpp's fixed(), which studies/ does not reach).
std::string decimals(double v, int places) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", places, v);
  return buf;
}

const char* shape_name(CommShape s) { return s == CommShape::hierarchical ? "hierarchical" : "flat"; }

}  // namespace

namespace collective_parts {

CommRates rates_of(const Stage& s) { return {s.comm_bw_efficiency, s.comm_extra_latency}; }

// Every candidate of `c`, fastest first (ties keep collective_cost's order, so the chosen one,
// the first minimum, comes first among equals).
std::vector<CollectiveChoice> sorted_candidates(const Collective& c, const MachineSpec& m,
                                                const CommRates& r) {
  std::array<CollectiveChoice, kMaxCollectiveCandidates> buf{};
  const int n = collective_candidates(c, m, r, buf);
  std::vector<CollectiveChoice> v(buf.begin(), buf.begin() + n);
  std::stable_sort(v.begin(), v.end(), [](const CollectiveChoice& a, const CollectiveChoice& b) {
    return a.seconds < b.seconds;
  });
  return v;
}

std::string level_name(const LinkCost& link, const MachineSpec& m) {
  if (link.level <= 0 || link.level > static_cast<int>(m.levels.size())) return m.pe.name;
  return m.levels[static_cast<std::size_t>(link.level - 1)].name;
}

// The point-to-point model in words with its numbers: a legacy (ring-only) level or a group
// inside one PE sends alpha + M/beta; otherwise latency x hops + M / (path bandwidth).
std::string p2p_model(const LinkCost& link, const MachineSpec& m, double bytes, const CommRates& r) {
  const double t = p2p_message_time(link, m, bytes, r);
  const Dimension T = Dimension::time;
  const std::string lvl = level_name(link, m);
  std::string s = "on " + lvl + ": " + format_quantity(t, T) + " per message\n      = ";
  const bool legacy = link.level <= 0 || link.level > static_cast<int>(m.levels.size()) ||
                      m.levels[static_cast<std::size_t>(link.level - 1)].collectives.algorithms ==
                          (1u << static_cast<unsigned>(CollAlgorithm::ring));
  double lat = link.latency, hops = 1;
  if (!legacy) {
    const auto d = static_cast<std::size_t>(link.level - 1);
    const LevelSpec& lv = m.levels[d];
    const LevelPaths p = level_paths(lv, std::max<std::int32_t>(2, link.members[d]),
                                     std::max<std::int32_t>(1, link.stride[d]));
    lat = lv.latency;
    hops = std::max(1.0, p.p2p_hops);
  }
  const double fixed_part = lat * hops + r.extra_latency;
  const double bw = t > fixed_part ? bytes / (t - fixed_part) : 0;
  s += format_quantity(lat, T) +
       (legacy ? " (alpha)" : " x " + decimals(hops, hops == std::floor(hops) ? 0 : 2) + " hop(s)");
  if (r.extra_latency > 0) s += " + " + format_quantity(r.extra_latency, T);
  s += " + M / " + format_quantity(bw, Dimension::bandwidth);
  s += legacy ? " (legacy ring level)" : " (one path of the topology)";
  return s;
}

std::string terms_model(const Collective& c, const MachineSpec& m, const CommRates& r,
                        const CollectiveChoice& best) {
  const CollectiveTerms t = collective_terms(c, m, r, best);
  if (!t.any) return "";
  const Dimension T = Dimension::time;
  std::string s = "= " + format_quantity(t.base_s, T) + " base";
  for (int i = 0; i < t.levels; ++i) {
    const auto k = static_cast<std::size_t>(i);
    s += " + " + decimals(t.steps[k], t.steps[k] == std::floor(t.steps[k]) ? 0 : 2) + " x " +
         format_quantity(t.hop_s[k], T) + " (" + m.levels[static_cast<std::size_t>(t.level[k])].name +
         " hop)";
  }
  s += " + " + format_quantity(t.bandwidth_s, T) + " (M / bandwidth)";
  return s;
}

std::string a2a_kernel(const Collective& c) {
  if (c.kind != CommKind::all_to_all) return "";
  return c.route_top_k > 0 ? "deepep_normal" : "direct";
}

}  // namespace collective_parts

std::string choice_label(const CollectiveChoice& c) {
  if (!c.any) return "";
  const std::string a = algorithm_protocol(c.algorithm, c.protocol);
  return c.shape == CommShape::hierarchical ? "hierarchical(" + a + ")" : a;
}

std::string stage_algorithm_label(const Stage& s) {
  if (!s.has_comm_algorithm) return "";
  CollectiveChoice c;
  c.any = true;
  c.algorithm = s.comm_algorithm;
  c.protocol = s.comm_protocol;
  c.shape = s.comm_hierarchical ? CommShape::hierarchical : CommShape::flat;
  return choice_label(c);
}

nlohmann::json stage_collectives_json(const StageWork& w, const Stage& s, const MachineSpec& m) {
  nlohmann::json out = nlohmann::json::array();
  const CommRates r = collective_parts::rates_of(s);
  for (int i = 0; i < w.comm_count; ++i) {
    const Collective& c = w.comms[static_cast<std::size_t>(i)];
    const CollectiveChoice best = collective_cost(c, m, r);
    nlohmann::json row = {{"kind", comm_kind_name(c.kind)},
                          {"ranks", c.ranks},
                          {"bytes", c.bytes},
                          {"level", collective_parts::level_name(c.link, m)},
                          {"algorithm", best.any ? coll_algorithm_name(best.algorithm) : ""},
                          {"protocol", protocol_name(best.protocol)},
                          {"shape", shape_name(best.shape)},
                          {"seconds", best.seconds}};
    nlohmann::json cands = nlohmann::json::array();
    for (const CollectiveChoice& k : collective_parts::sorted_candidates(c, m, r))
      cands.push_back({{"algorithm", coll_algorithm_name(k.algorithm)},
                       {"protocol", protocol_name(k.protocol)},
                       {"shape", shape_name(k.shape)},
                       {"seconds", k.seconds}});
    row["candidates"] = std::move(cands);
    if (const std::string k = collective_parts::a2a_kernel(c); !k.empty()) row["kernel"] = k;
    if (c.kind == CommKind::p2p) {
      row["model"] = collective_parts::p2p_model(c.link, m, c.bytes, r);
    } else if (const std::string t = collective_parts::terms_model(c, m, r, best); !t.empty()) {
      row["model"] = t;
    }
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace tessera
