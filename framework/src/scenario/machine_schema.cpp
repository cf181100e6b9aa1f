// The machine file schema (docs/specification.md §2.3 "Machine file — a hierarchy").
#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/checked_math.hpp"
#include "core/nearest_name.hpp"
#include "scenario/collectives_schema.hpp"
#include "scenario/scenario_loader.hpp"
#include "scenario/schema_util.hpp"
#include "scenario/schemas.hpp"
#include "tessera/limits.hpp"

namespace tessera::loader {

namespace {

const std::vector<std::string> kTopologies = {"switch", "ring", "all-to-all", "torus"};

LinkTopology topology_from(const std::string& s) {
  if (s == "ring") return LinkTopology::ring;
  if (s == "all-to-all") return LinkTopology::all_to_all;
  if (s == "torus") return LinkTopology::torus;
  return LinkTopology::switched;
}

bool valid_unit_name(const std::string& s) {
  if (s.empty()) return false;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (!(std::isalnum(c) || c == '_' || c == '-')) return false;
  }
  return true;
}

std::optional<double> quantity_member(const YNode& map, const std::string& path, const std::string& key,
                                      Dimension dim, bool required, bool allow_zero, Diags& d) {
  const std::string what = std::string("a ") + dimension_name(dim) + ", e.g. " + unit_examples(dim);
  const YNode* n = member(map, path, key, required, what, d);
  if (!n) return std::nullopt;
  return read_quantity(*n, join_path(path, key), dim, d, allow_zero);
}

// `dims: [4, 4, 4]`: the torus extents, innermost first; their product is the fanout.
void parse_torus_dims(const YNode& item, const std::string& ip, LevelSpec& l, Diags& d) {
  const YNode* dn = item.find("dims");
  const std::string kp = join_path(ip, "dims");
  if (!dn) {
    if (l.topology == LinkTopology::torus)
      d.error(item.where, kp + ": a torus level needs its extents, e.g. dims: [4, 4, 4] (product = fanout)");
    return;
  }
  if (l.topology != LinkTopology::torus) {
    d.error(dn->where, kp + ": only a torus level has dims (this level's topology is " +
                           topology_name(l.topology) + ")");
    return;
  }
  if (!dn->is_sequence() || dn->items.empty() || dn->items.size() > static_cast<std::size_t>(kMaxTorusDims)) {
    d.error(dn->where, kp + ": expected a list of 1 to " + std::to_string(kMaxTorusDims) +
                           " positive integers (the torus extents), found " + describe(*dn));
    return;
  }
  std::int64_t product = 1;
  bool ok = true;
  for (std::size_t i = 0; i < dn->items.size(); ++i) {
    const auto v = read_int(dn->items[i], kp + "[" + std::to_string(i) + "]", d, 1, "machine.pes");
    if (!v) {
      ok = false;
      continue;
    }
    l.dims[i] = static_cast<std::int32_t>(*v);
    product = saturating_mul(product, *v);
  }
  if (!ok) return;
  l.dim_count = static_cast<int>(dn->items.size());
  if (product != l.fanout)
    d.error(dn->where, kp + ": the extents multiply to " + std::to_string(product) + ", not the fanout " +
                           std::to_string(l.fanout));
}

void parse_efficiency(const YNode& n, const std::string& path, std::vector<RawParam>* out, Diags& d) {
  if (!expect_mapping(n, path, d)) return;
  for (const auto& e : n.entries) {
    RawParam p;
    p.key = e.key;
    p.where = e.value.where;
    const std::string kp = join_path(path, e.key);
    if (e.value.is_scalar()) {
      p.text = e.value.value;
    } else if (e.value.is_sequence()) {
      p.is_list = true;
      bool ok = true;
      for (const auto& item : e.value.items) {
        if (!item.is_scalar()) {
          d.error(item.where, kp + ": expected a list of values, found an item that is " + describe(item));
          ok = false;
          continue;
        }
        p.items.push_back(item.value);
        p.text += (p.text.empty() ? "" : ",") + item.value;
      }
      if (!ok) continue;
    } else {
      d.error(e.value.where, kp + ": expected a value or a list of values, found " + describe(e.value));
      continue;
    }
    if (out) out->push_back(std::move(p));
  }
}

}  // namespace

std::optional<MachineSpec> parse_machine(const YNode& n, const std::string& path, bool require_name,
                                         std::vector<RawParam>* efficiency, Diags& d) {
  const std::size_t before = d.size();
  if (!expect_mapping(n, path, d)) return std::nullopt;
  check_keys(n, path, *schema_keys("machine"), d);
  MachineSpec m;
  if (const YNode* name = member(n, path, "name", require_name, "the machine's name, e.g. DGX-H100", d)) {
    if (auto s = read_string(*name, join_path(path, "name"), d)) m.name = *s;
  } else {
    m.name = "inline machine";
  }
  if (const YNode* desc = n.find("description")) read_string(*desc, join_path(path, "description"), d);

  // pe
  const std::string pp = join_path(path, "pe");
  if (const YNode* pe = member(n, path, "pe", true, "the processing element: {name, flops, hbm}", d)) {
    if (expect_mapping(*pe, pp, d)) {
      check_keys(*pe, pp, *schema_keys("machine.pe"), d);
      if (const YNode* nm = pe->find("name")) {
        if (auto s = read_string(*nm, join_path(pp, "name"), d)) {
          if (!valid_unit_name(*s))
            d.error(nm->where, join_path(pp, "name") +
                                   ": expected a name of letters, digits, '_' or '-', found \"" + *s + "\"");
          else
            m.pe.name = *s;
        }
      }
      const std::string fp = join_path(pp, "flops");
      if (const YNode* fl =
              member(*pe, pp, "flops", true,
                     "dense peak per number format, e.g. {bf16: 989 TFLOP/s, fp8: 1979 TFLOP/s}", d)) {
        if (expect_mapping(*fl, fp, d)) {
          check_keys(*fl, fp, *schema_keys("machine.pe.flops"), d);
          for (const auto& e : fl->entries) {
            const auto t = dtype_from_name(e.key);
            if (!t) continue;  // reported by check_keys
            if (auto v = read_quantity(e.value, join_path(fp, e.key), Dimension::flop_rate, d)) {
              m.pe.flops[static_cast<std::size_t>(*t)] = *v;
            }
          }
          if (fl->entries.empty())
            d.error(fl->where, fp + ": expected at least one number format with its peak, e.g. "
                                    "{bf16: 989 TFLOP/s}, found an empty mapping");
        }
      }
      const std::string hp = join_path(pp, "hbm");
      if (const YNode* hbm = member(*pe, pp, "hbm", true, "{capacity, bandwidth, usable}", d)) {
        if (expect_mapping(*hbm, hp, d)) {
          check_keys(*hbm, hp, *schema_keys("machine.pe.hbm"), d);
          if (auto v = quantity_member(*hbm, hp, "capacity", Dimension::bytes, true, false, d))
            m.pe.hbm_capacity = *v;
          if (auto v = quantity_member(*hbm, hp, "bandwidth", Dimension::bandwidth, true, false, d))
            m.pe.hbm_bandwidth = *v;
          if (const YNode* u = hbm->find("usable")) {
            if (auto v = read_real(*u, join_path(hp, "usable"), d)) {
              if (*v <= 0 || *v > 1)
                d.error(u->where, join_path(hp, "usable") +
                                      ": expected the usable fraction of capacity, in (0, 1], found " +
                                      u->value);
              else
                m.pe.hbm_usable = *v;
            }
          }
        }
      }
    }
  }

  // levels
  const std::string lp = join_path(path, "levels");
  if (const YNode* levels = member(n, path, "levels", true,
                                   "a list of levels, innermost first, e.g. [{name: node, fanout: 8, "
                                   "link_bw: 450 GB/s, latency: 3 us, topology: switch}]",
                                   d)) {
    if (!levels->is_sequence()) {
      d.error(levels->where, lp + ": expected a list of levels, innermost first, found " + describe(*levels));
    } else if (levels->items.empty()) {
      d.error(levels->where, lp + ": expected at least one level (e.g. {name: node, fanout: 8, link_bw: "
                                  "450 GB/s, latency: 3 us, topology: switch}), found an empty list");
    } else {
      const auto& keys = *schema_keys("machine.levels.*");
      for (std::size_t i = 0; i < levels->items.size(); ++i) {
        const YNode& item = levels->items[i];
        std::string ip = lp + "[" + std::to_string(i) + "]";
        if (!expect_mapping(item, ip, d)) continue;
        LevelSpec l;
        if (const YNode* nm = member(item, ip, "name", true, "the level's name, e.g. node", d)) {
          if (auto s = read_string(*nm, ip + ".name", d)) {
            if (!valid_unit_name(*s)) {
              d.error(nm->where,
                      ip + ".name: expected a name of letters, digits, '_' or '-', found \"" + *s + "\"");
            } else {
              l.name = *s;
              ip = join_path(lp, *s);
              if (*s == "pe" || *s == m.pe.name)
                d.error(nm->where, ip + ": a level cannot be named like the PE ('" + *s + "')");
              for (const auto& prev : m.levels)
                if (prev.name == *s)
                  d.error(nm->where, ip + ": duplicate level name '" + *s + "'; level names must be unique");
            }
          }
        }
        check_keys(item, ip, keys, d);
        if (const YNode* f =
                member(item, ip, "fanout", true, "a positive integer: units of the level below", d))
          if (auto v = read_int(*f, ip + ".fanout", d, 1, "machine.pes")) l.fanout = *v;
        if (auto v = quantity_member(item, ip, "link_bw", Dimension::bandwidth, true, false, d))
          l.link_bw = *v;
        if (auto v = quantity_member(item, ip, "latency", Dimension::time, true, true, d)) l.latency = *v;
        if (const YNode* t = item.find("topology"))
          if (auto c = read_choice(*t, ip + ".topology", kTopologies, d)) l.topology = topology_from(*c);
        if (auto v = quantity_member(item, ip, "uplink_bw", Dimension::bandwidth, false, false, d))
          l.uplink_bw = *v;
        parse_torus_dims(item, ip, l, d);
        parse_level_collectives(item.find("collectives"), ip, i, l, d);
        m.levels.push_back(std::move(l));
      }
    }
  }

  if (const YNode* so = n.find("stage_overhead"))
    if (auto v = read_quantity(*so, join_path(path, "stage_overhead"), Dimension::time, d, true))
      m.stage_overhead = *v;

  if (const YNode* en = n.find("energy")) {
    const std::string ep = join_path(path, "energy");
    if (expect_mapping(*en, ep, d)) {
      check_keys(*en, ep, *schema_keys("machine.energy"), d);
      m.energy.present = true;
      if (auto v = quantity_member(*en, ep, "flop", Dimension::energy, true, true, d)) m.energy.flop = *v;
      if (auto v = quantity_member(*en, ep, "hbm_byte", Dimension::energy, true, true, d))
        m.energy.hbm_byte = *v;
      if (auto v = quantity_member(*en, ep, "link_byte", Dimension::energy, true, true, d))
        m.energy.link_byte = *v;
    }
  }
  if (const YNode* ef = n.find("efficiency"))
    parse_efficiency(*ef, join_path(path, "efficiency"), efficiency, d);

  if (d.size() == before) check_machine_consistency(n, path, m, d);
  if (d.size() != before) return std::nullopt;
  return m;
}

void check_machine_consistency(const YNode& n, const std::string& path, const MachineSpec& m, Diags& d) {
  // Total PEs: the product of the fanouts, each partial product checked (fanouts each within
  // machine.pes can still multiply past int64).
  const std::uint64_t limit = limit_value("machine.pes");
  std::int64_t total = 1;
  std::string product;
  bool over = false;
  for (const auto& l : m.levels) {
    product += (product.empty() ? "" : " x ") + std::to_string(l.fanout);
    const auto next = checked_mul(total, l.fanout);
    if (!next || static_cast<std::uint64_t>(*next) > limit) over = true;
    if (next) total = *next;
  }
  if (!over) return;
  const YNode* levels = n.find("levels");
  d.error(levels ? levels->where : n.where, join_path(path, "levels") + ": the fanouts give " + product +
                                                " PEs, which " + limit_exceeded("machine.pes"));
}

// ---- numeric machine fields by dotted path (hardware sweeps) ----

namespace {

struct FieldRef {
  Dimension dim = Dimension::none;
  bool integer = false;
  std::string error;
  // What it addresses.
  enum Which {
    flops,
    hbm_capacity,
    hbm_bandwidth,
    hbm_usable,
    fanout,
    link_bw,
    latency,
    uplink_bw,
    stage_overhead,
    energy_flop,
    energy_hbm,
    energy_link,
    coll_link_efficiency,
    coll_cost  // one AlgorithmCost member of a level's collectives
  } which = flops;
  DType dtype = DType::bf16;
  std::string level;
  // coll_cost: which algorithm (kCollCostAlgorithms), protocol (ring/tree) and member.
  int coll_algorithm = 0, coll_protocol = 0, coll_member = 0;
};

// The AlgorithmCost blocks of a `collectives:` block (docs/scenario-format.md "Collectives").
const std::vector<std::string> kCollCostAlgorithms = {"ring",     "tree",       "one_shot",
                                                      "two_shot", "in_network", "direct"};
const std::vector<std::string> kCollProtocols = {"ll", "ll128", "simple"};
const std::vector<std::string> kCollMembers = {"base", "hop", "bw_factor"};

int index_of(const std::vector<std::string>& v, const std::string& s) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] == s) return static_cast<int>(i);
  return -1;
}

std::vector<std::string> split_dots(std::string_view s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = s.find('.', start);
    out.emplace_back(s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return out;
}

const char* kNumericFields =
    "machine.pe.flops.<dtype>, machine.pe.hbm.capacity, machine.pe.hbm.bandwidth, machine.pe.hbm.usable, "
    "machine.levels.<level>.fanout, .link_bw, .latency, .uplink_bw, machine.stage_overhead, "
    "machine.energy.flop, .hbm_byte, .link_byte, machine.levels.<level>.collectives.link_efficiency, "
    ".collectives.<one_shot|two_shot|direct|in_network>.<base|hop|bw_factor>, "
    ".collectives.<ring|tree>.<ll|ll128|simple>.<base|hop|bw_factor>";

// machine.levels.<level>.collectives.<...>: parts[3..] (3 to 5 of them after "levels").
template <class Fail>
FieldRef resolve_collectives_field(const std::vector<std::string>& parts, FieldRef& r, const Fail& fail) {
  const std::string& a = parts[3];
  const std::string cp = "machine.levels." + parts[1] + ".collectives";
  if (a == "link_efficiency" && parts.size() == 4)
    return r.which = FieldRef::coll_link_efficiency, r.dim = Dimension::none, r;
  const int ai = index_of(kCollCostAlgorithms, a);
  if (ai < 0) {
    std::vector<std::string> names = kCollCostAlgorithms;
    names.insert(names.begin(), "link_efficiency");
    return fail("names no numeric collectives field" + did_you_mean(a, names) + "; " + cp +
                " has link_efficiency and the constants of " + join_names(kCollCostAlgorithms, " and "));
  }
  const bool protocols = a == "ring" || a == "tree";
  const std::size_t want = protocols ? 6 : 5;
  if (parts.size() != want)
    return fail(std::string("is not a numeric machine field; ") + cp + "." + a + " takes " +
                (protocols ? "<ll|ll128|simple>.<base|hop|bw_factor>" : "<base|hop|bw_factor>"));
  r.coll_algorithm = ai;
  if (protocols) {
    r.coll_protocol = index_of(kCollProtocols, parts[4]);
    if (r.coll_protocol < 0)
      return fail("names no protocol" + did_you_mean(parts[4], kCollProtocols) +
                  "; protocols: ll, ll128, simple");
  }
  const std::string& mem = parts[want - 1];
  r.coll_member = index_of(kCollMembers, mem);
  if (r.coll_member < 0)
    return fail("names no constant" + did_you_mean(mem, kCollMembers) + "; constants: base, hop, bw_factor");
  r.which = FieldRef::coll_cost;
  r.dim = r.coll_member == 2 ? Dimension::none : Dimension::time;
  return r;
}

FieldRef resolve_field(const MachineSpec* machine, const std::string& path) {
  FieldRef r;
  auto parts = split_dots(path);
  if (!parts.empty() && parts[0] == "machine") parts.erase(parts.begin());
  const auto fail = [&](std::string why) {
    r.error = "'" + path + "' " + why;
    return r;
  };
  const auto not_numeric = [&]() {
    return fail("is not a numeric machine field; numeric fields are " + std::string(kNumericFields));
  };
  if (parts.empty()) return not_numeric();
  const std::string& top = parts[0];
  if (top == "pe") {
    if (parts.size() == 3 && parts[1] == "flops") {
      const auto t = dtype_from_name(parts[2]);
      if (!t)
        return fail("names no number format" + did_you_mean(parts[2], *schema_keys("machine.pe.flops")) +
                    "; formats: fp32, bf16, fp16, fp8, int8, int4");
      r.which = FieldRef::flops;
      r.dtype = *t;
      r.dim = Dimension::flop_rate;
      return r;
    }
    if (parts.size() == 3 && parts[1] == "hbm") {
      if (parts[2] == "capacity") return r.which = FieldRef::hbm_capacity, r.dim = Dimension::bytes, r;
      if (parts[2] == "bandwidth") return r.which = FieldRef::hbm_bandwidth, r.dim = Dimension::bandwidth, r;
      if (parts[2] == "usable") return r.which = FieldRef::hbm_usable, r.dim = Dimension::none, r;
      return fail("names no HBM field" + did_you_mean(parts[2], *schema_keys("machine.pe.hbm")) +
                  "; HBM fields: capacity, bandwidth, usable");
    }
    return not_numeric();
  }
  if (top == "levels") {
    if (parts.size() < 3 || parts.size() > 6 || (parts.size() > 3 && parts[2] != "collectives"))
      return not_numeric();
    if (machine) {
      std::vector<std::string> names;
      bool found = false;
      for (const auto& l : machine->levels) {
        names.push_back(l.name);
        found = found || l.name == parts[1];
      }
      if (!found)
        return fail("names no level of machine '" + machine->name + "'" + did_you_mean(parts[1], names) +
                    "; its levels are " + join_names(names, " and "));
    }
    r.level = parts[1];
    const std::string& f = parts[2];
    if (f == "collectives" && parts.size() > 3) return resolve_collectives_field(parts, r, fail);
    if (f == "fanout") return r.which = FieldRef::fanout, r.integer = true, r.dim = Dimension::none, r;
    if (f == "link_bw") return r.which = FieldRef::link_bw, r.dim = Dimension::bandwidth, r;
    if (f == "latency") return r.which = FieldRef::latency, r.dim = Dimension::time, r;
    if (f == "uplink_bw") return r.which = FieldRef::uplink_bw, r.dim = Dimension::bandwidth, r;
    if (f == "name" || f == "topology" || f == "dims" || f == "collectives") return not_numeric();
    return fail("names no level field" + did_you_mean(f, *schema_keys("machine.levels.*")) +
                "; numeric level fields: fanout, link_bw, latency, uplink_bw");
  }
  if (top == "stage_overhead" && parts.size() == 1)
    return r.which = FieldRef::stage_overhead, r.dim = Dimension::time, r;
  if (top == "energy" && parts.size() == 2) {
    r.dim = Dimension::energy;
    if (parts[1] == "flop") return r.which = FieldRef::energy_flop, r;
    if (parts[1] == "hbm_byte") return r.which = FieldRef::energy_hbm, r;
    if (parts[1] == "link_byte") return r.which = FieldRef::energy_link, r;
    return fail("names no energy field" + did_you_mean(parts[1], *schema_keys("machine.energy")) +
                "; energy fields: flop, hbm_byte, link_byte");
  }
  if (schema_keys("machine")->end() ==
      std::find(schema_keys("machine")->begin(), schema_keys("machine")->end(), top))
    return fail("names no machine field" + did_you_mean(top, *schema_keys("machine")) +
                "; numeric fields are " + kNumericFields);
  return not_numeric();
}

double* field_ptr(MachineSpec& m, const FieldRef& r) {
  LevelSpec* level = nullptr;
  if (!r.level.empty())
    for (auto& l : m.levels)
      if (l.name == r.level) level = &l;
  switch (r.which) {
    case FieldRef::flops:
      return &m.pe.flops[static_cast<std::size_t>(r.dtype)];
    case FieldRef::hbm_capacity:
      return &m.pe.hbm_capacity;
    case FieldRef::hbm_bandwidth:
      return &m.pe.hbm_bandwidth;
    case FieldRef::hbm_usable:
      return &m.pe.hbm_usable;
    case FieldRef::link_bw:
      return level ? &level->link_bw : nullptr;
    case FieldRef::latency:
      return level ? &level->latency : nullptr;
    case FieldRef::uplink_bw:
      return level ? &level->uplink_bw : nullptr;
    case FieldRef::stage_overhead:
      return &m.stage_overhead;
    case FieldRef::energy_flop:
      return &m.energy.flop;
    case FieldRef::energy_hbm:
      return &m.energy.hbm_byte;
    case FieldRef::energy_link:
      return &m.energy.link_byte;
    case FieldRef::fanout:
      return nullptr;
    case FieldRef::coll_link_efficiency:
      return level ? &level->collectives.link_efficiency : nullptr;
    case FieldRef::coll_cost: {
      if (!level) return nullptr;
      LevelCollectives& c = level->collectives;
      const auto p = static_cast<std::size_t>(r.coll_protocol);
      AlgorithmCost* a = nullptr;
      switch (r.coll_algorithm) {
        case 0:
          a = &c.ring[p];
          break;
        case 1:
          a = &c.tree[p];
          break;
        case 2:
          a = &c.one_shot;
          break;
        case 3:
          a = &c.two_shot;
          break;
        case 4:
          a = &c.in_network_cost;
          break;
        default:
          a = &c.direct;
          break;
      }
      return r.coll_member == 0 ? &a->base : r.coll_member == 1 ? &a->hop : &a->bw_factor;
    }
  }
  return nullptr;
}

LevelSpec* find_level(MachineSpec& m, const std::string& name) {
  for (auto& l : m.levels)
    if (l.name == name) return &l;
  return nullptr;
}

}  // namespace

FieldCheck check_machine_field(const MachineSpec* machine, const std::string& path) {
  const FieldRef r = resolve_field(machine, path);
  FieldCheck c;
  c.dimension = r.dim;
  c.integer = r.integer;
  c.error = r.error;
  return c;
}

}  // namespace tessera::loader

namespace tessera {

void set_machine_field(MachineSpec& machine, const std::string& path, double si_value) {
  const auto r = loader::resolve_field(&machine, path);
  if (!r.error.empty()) throw InputError(r.error);
  if (r.which == loader::FieldRef::fanout) {
    LevelSpec* l = loader::find_level(machine, r.level);
    if (!l) throw InputError("'" + path + "' names no level of machine '" + machine.name + "'");
    l->fanout = static_cast<std::int64_t>(std::llround(si_value));
    return;
  }
  double* p = loader::field_ptr(machine, r);
  if (!p) throw InputError("'" + path + "' names no level of machine '" + machine.name + "'");
  *p = si_value;
  if (r.which == loader::FieldRef::energy_flop || r.which == loader::FieldRef::energy_hbm ||
      r.which == loader::FieldRef::energy_link)
    machine.energy.present = true;
}

double get_machine_field(const MachineSpec& machine, const std::string& path) {
  const auto r = loader::resolve_field(&machine, path);
  if (!r.error.empty()) throw InputError(r.error);
  auto& m = const_cast<MachineSpec&>(machine);  // field_ptr is shared with the setter; read only here
  if (r.which == loader::FieldRef::fanout) {
    const LevelSpec* l = loader::find_level(m, r.level);
    if (!l) throw InputError("'" + path + "' names no level of machine '" + machine.name + "'");
    return static_cast<double>(l->fanout);
  }
  const double* p = loader::field_ptr(m, r);
  if (!p) throw InputError("'" + path + "' names no level of machine '" + machine.name + "'");
  return *p;
}

Dimension machine_field_dimension(const std::string& path) {
  const auto r = loader::resolve_field(nullptr, path);
  if (!r.error.empty()) throw InputError(r.error);
  return r.dim;
}

}  // namespace tessera
